package io.khamsin.container.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.util.concurrent.EventExecutor;

/**
 * The handshake figures of the TLS listeners that share them: per reactor (event loop), plain counters written by
 * that reactor's thread alone with release stores, as {@code ReactorMetrics} keeps its own, merged when read.
 * Counted once per connection: a full or a resumed handshake, a failure and its {@link HandshakeFailure reason}, or
 * a close before the connection sent a byte.
 */
public final class TlsFigures {

	private static final int FULL = 0;

	private static final int RESUMED = 1;

	private static final int CLOSED_BEFORE_HELLO = 2;

	private static final int FAILURES = 3;

	private static final HandshakeFailure[] REASONS = HandshakeFailure.values();

	private static final int COUNTERS = FAILURES + REASONS.length;

	// Padding on both sides keeps two reactors' counters off the same cache line.
	private static final int PAD = 8;

	private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

	private final Map<EventExecutor, Reactor> reactors = new ConcurrentHashMap<>();

	/** @return new, empty figures */
	public static TlsFigures create() {
		return new TlsFigures();
	}

	/**
	 * The counters of the reactor that runs a loop, made the first time the loop asks.
	 * @param loop the reactor's event loop
	 * @return its counters, to write from that loop only
	 */
	public Reactor reactor(EventExecutor loop) {
		Reactor reactor = this.reactors.get(loop);
		if (reactor == null) {
			reactor = this.reactors.computeIfAbsent(loop, (key) -> new Reactor(Thread.currentThread().getName()));
		}
		return reactor;
	}

	/** @return the sum over every reactor */
	public HandshakeCounts totals() {
		HandshakeCounts totals = HandshakeCounts.empty("total");
		for (Reactor reactor : this.reactors.values()) {
			totals = totals.plus(reactor.snapshot());
		}
		return totals;
	}

	/** @return the figures of each reactor that has seen a TLS connection, named after its thread */
	public List<HandshakeCounts> reactors() {
		List<HandshakeCounts> all = new ArrayList<>();
		for (Reactor reactor : this.reactors.values()) {
			all.add(reactor.snapshot());
		}
		all.sort((a, b) -> a.reactor().compareTo(b.reactor()));
		return all;
	}

	/**
	 * The counters of one reactor, written by its thread only.
	 */
	public static final class Reactor {

		private final String name;

		private final long[] counts = new long[PAD + COUNTERS + PAD];

		Reactor(String name) {
			this.name = name;
		}

		/** Count a full handshake: a new session. */
		public void full() {
			add(FULL);
		}

		/** Count a handshake that resumed an earlier session. */
		public void resumed() {
			add(RESUMED);
		}

		/** Count a connection that closed before it sent a byte: no handshake was tried. */
		public void closedBeforeHello() {
			add(CLOSED_BEFORE_HELLO);
		}

		/**
		 * Count a handshake that failed.
		 * @param reason why
		 */
		public void failed(HandshakeFailure reason) {
			add(FAILURES + reason.ordinal());
		}

		private void add(int counter) {
			int index = PAD + counter;
			COUNTS.setRelease(this.counts, index, this.counts[index] + 1);
		}

		private long get(int counter) {
			return (long) COUNTS.getAcquire(this.counts, PAD + counter);
		}

		HandshakeCounts snapshot() {
			long[] failures = new long[REASONS.length];
			for (int i = 0; i < failures.length; i++) {
				failures[i] = get(FAILURES + i);
			}
			return HandshakeCounts.of(this.name, get(FULL), get(RESUMED), failures, get(CLOSED_BEFORE_HELLO));
		}

	}

}
