package io.khamsin.container.cache;

import java.util.ArrayList;
import java.util.List;

/**
 * One render of a key that other requests of the key wait for (single-flight). The first request of a missing key
 * leads the flight and renders; the others join it as waiters, up to a bound, and hear when it lands: stored (they
 * look the key up again) or not (they render themselves).
 */
final class Flight {

	private final String key;

	private final int maxWaiters;

	private List<Lookup.Deferred> waiters;

	private boolean landed;

	Flight(String key, int maxWaiters) {
		this.key = key;
		this.maxWaiters = maxWaiters;
	}

	String key() {
		return this.key;
	}

	/**
	 * Wait for the render.
	 * @param waiter the waiting lookup
	 * @return whether it waits; {@code false} when the flight landed or has as many waiters as it may
	 */
	synchronized boolean join(Lookup.Deferred waiter) {
		if (this.landed) {
			return false;
		}
		if (this.waiters == null) {
			this.waiters = new ArrayList<>();
		}
		if (this.waiters.size() >= this.maxWaiters) {
			return false;
		}
		this.waiters.add(waiter);
		return true;
	}

	/**
	 * The render is over.
	 * @return the waiters, each to be completed once
	 */
	synchronized List<Lookup.Deferred> land() {
		this.landed = true;
		List<Lookup.Deferred> waiters = this.waiters;
		this.waiters = null;
		return (waiters != null) ? waiters : List.of();
	}

}
