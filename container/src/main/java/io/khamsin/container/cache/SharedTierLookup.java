package io.khamsin.container.cache;

import java.util.List;
import java.util.function.LongSupplier;

import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;

/**
 * The shared tier's part in a lookup: a local miss that leads its key's flight reads the page from the shared tier
 * before it renders (for a page whose responses vary, its {@link VaryMarker} first, then the request's variant). A
 * fresh entry read answers the request and the flight's waiters, through the local tier when there is one;
 * anything else, an entry that a purge overtook included, makes the request the flight's leader, which renders.
 * The answers complete on the shared tier's threads and are made on each request's loop.
 */
final class SharedTierLookup {

	private final DefaultPageCache cache;

	private final SharedTierClient shared;

	private final LocalTier local;

	private final boolean localTier;

	private final Purges purges;

	private final ByteBufAllocator alloc;

	private final LongSupplier clock;

	SharedTierLookup(DefaultPageCache cache, SharedTierClient shared, LocalTier local, Purges purges,
			LongSupplier clock) {
		this.cache = cache;
		this.shared = shared;
		this.local = local;
		this.localTier = cache.config().localTier();
		this.purges = purges;
		this.alloc = cache.alloc();
		this.clock = clock;
	}

	/** @return whether the shared tier is asked now (see {@link SharedTierClient#available()}) */
	boolean available() {
		return this.shared.available();
	}

	/**
	 * Read a page for a request that leads its key's flight.
	 * @param executor the request's event loop, where the answer is made
	 * @param flight the flight the request leads
	 * @param request the request
	 * @param page its page key
	 * @param admitted whether a render of it may be stored
	 * @param fallback the entry held for stale-if-error, or {@code null}; the answer takes it
	 * @return the answer, once the shared tier has answered
	 */
	Lookup.Deferred read(EventExecutor executor, Flight flight, CacheRequest request, String page, boolean admitted,
			CachedResponse fallback) {
		Lookup.Deferred answer = new Lookup.Deferred(executor, request);
		long purgesAtStart = this.purges.applied();
		this.shared.get(SharedTierClient.key(page, "")).whenComplete((bytes, error) -> {
			Stored stored = (error == null) ? this.shared.decode(bytes, this.alloc) : null;
			if (stored instanceof VaryMarker marker) {
				String variant = PageKeys.variant(marker.names(), request);
				if (this.localTier && this.purges.applied() == purgesAtStart
						&& marker.untilMillis() > this.clock.getAsLong()) {
					this.local.put(page, marker);
				}
				this.shared.get(SharedTierClient.key(page, variant)).whenComplete((variantBytes, variantError) -> {
					Stored variantStored = (variantError == null) ? this.shared.decode(variantBytes, this.alloc) : null;
					answered(answer, flight, request, page, admitted, fallback, variantStored, purgesAtStart);
				});
				return;
			}
			answered(answer, flight, request, page, admitted, fallback, stored, purgesAtStart);
		});
		return answer;
	}

	private void answered(Lookup.Deferred answer, Flight flight, CacheRequest request, String page, boolean admitted,
			CachedResponse fallback, Stored stored, long purgesAtStart) {
		if (stored instanceof CachedResponse entry) {
			// A purge since the read began may have removed this entry from the store: it must not come back.
			if (this.purges.applied() == purgesAtStart && entry.isFresh(this.clock.getAsLong())) {
				if (this.localTier) {
					this.local.put(entry.key(), entry);
					answerFromLocal(answer, flight, request, page, fallback);
				}
				else {
					answerFrom(entry, answer, flight, fallback);
				}
				return;
			}
			entry.release();
		}
		if (!answer.complete(() -> new Lookup.Miss(
				new Ticket(this.cache, request, page, flight, Ticket.Role.LEADER, admitted, CacheTier.SHARED, fallback)))) {
			DefaultPageCache.release(fallback);
			this.cache.land(flight, null, false);
		}
	}

	/** The entry read is in the local tier now: the request and the flight's waiters look it up there. */
	private void answerFromLocal(Lookup.Deferred answer, Flight flight, CacheRequest request, String page,
			CachedResponse fallback) {
		List<Lookup.Deferred> waiters = this.cache.endFlight(flight);
		answer.complete(() -> {
			Lookup hit = this.cache.fromLocal(request, page, CacheTier.SHARED);
			if (hit != null) {
				DefaultPageCache.release(fallback);
				return hit;
			}
			return new Lookup.Miss(new Ticket(this.cache, request, page, null, Ticket.Role.FOLLOWER, false,
					CacheTier.SHARED, fallback));
		});
		for (Lookup.Deferred waiter : waiters) {
			waiter.complete(() -> this.cache.afterFlight(waiter.request(), true));
		}
	}

	/** No tier keeps the entry read: it answers the request and the flight's waiters, and is let go once they have it. */
	private void answerFrom(CachedResponse entry, Lookup.Deferred answer, Flight flight, CachedResponse fallback) {
		List<Lookup.Deferred> waiters = this.cache.endFlight(flight);
		this.cache.completeFrom(answer, entry, CacheTier.SHARED);
		for (Lookup.Deferred waiter : waiters) {
			this.cache.completeFrom(waiter, entry, CacheTier.SHARED);
		}
		entry.release();
		DefaultPageCache.release(fallback);
	}

}
