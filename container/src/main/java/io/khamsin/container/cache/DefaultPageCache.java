package io.khamsin.container.cache;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * The page cache: the {@link #lookup} of the exchange stage, the store of what tickets capture, single-flight,
 * stale-while-revalidate and stale-if-error, compressed variants, purges and figures, over a local tier (Caffeine,
 * W-TinyLFU, weighed in bytes) and an optional {@link SharedTier}. Thread-safe: every event loop looks up and
 * stores at once; a request's deferred answers come back on its own loop.
 */
public final class DefaultPageCache implements PageCache, AutoCloseable {

	private final PageCacheConfig config;

	private final Cacheability cacheability;

	private final CacheCounters counters = new CacheCounters();

	private final LocalTier local;

	private final MissSketch misses;

	private final Map<String, Flight> flights = new ConcurrentHashMap<>();

	private final Variants variants;

	private final ByteBufAllocator alloc;

	private final LongSupplier clock;

	private final SharedTierClient shared;

	private final boolean localTier;

	private final Purges purges;

	private final SharedTierLookup sharedLookup;

	DefaultPageCache(PageCacheConfig config, SharedTier sharedTier, List<VariantEncoder> encoders,
			Executor variantExecutor, ByteBufAllocator alloc, LongSupplier clock) {
		this.config = config;
		this.localTier = config.localTier();
		this.cacheability = new Cacheability(config);
		this.clock = clock;
		this.alloc = alloc;
		this.misses = (config.admissionThreshold() > 1) ? new MissSketch() : null;
		this.local = new LocalTier(config.maxSize(), clock, this.counters);
		this.variants = new Variants(encoders, variantExecutor, alloc, config.offLoopVariantSize(), this.counters,
				this.local);
		this.shared = (sharedTier != null && config.shared().enabled())
				? new SharedTierClient(sharedTier, config.shared(), this.counters) : null;
		this.purges = new Purges(this.local, this.shared, this.counters);
		this.sharedLookup = (this.shared != null)
				? new SharedTierLookup(this, this.shared, this.local, this.purges, clock) : null;
		if (this.shared != null) {
			sharedTier.onPurge(this.purges::applyLocally);
		}
	}

	/**
	 * A builder of a page cache.
	 * @param config the configuration
	 * @return the builder
	 */
	public static PageCacheBuilder builder(PageCacheConfig config) {
		return new PageCacheBuilder(config);
	}

	/** @return the configuration */
	public PageCacheConfig config() {
		return this.config;
	}

	CacheCounters counters() {
		return this.counters;
	}

	ByteBufAllocator alloc() {
		return this.alloc;
	}

	// Lookup

	/**
	 * Look a request up. Call it on the request's event loop, before the application.
	 * @param request the request
	 * @param executor the request's event loop: deferred answers are delivered there
	 * @return what to do
	 */
	public Lookup lookup(CacheRequest request, EventExecutor executor) {
		BypassReason reason = LookupRules.bypass(this.config.enabled(), request);
		if (reason != null) {
			this.counters.count(CacheResult.BYPASS, CacheTier.LOCAL);
			return LookupRules.answer(reason);
		}
		boolean head = "HEAD".equals(request.method());
		String page = PageKeys.page(request);
		boolean noCache = LookupRules.noCache(request);
		boolean authorized = request.header("authorization") != null;
		long now = this.clock.getAsLong();
		Stored stored = this.local.get(page);
		String key = page;
		if (stored instanceof VaryMarker marker) {
			key = PageKeys.entryKey(page, PageKeys.variant(marker.names(), request));
			stored = this.local.get(key);
		}
		CachedResponse fallback = null;
		if (stored instanceof CachedResponse entry && !noCache && (!authorized || entry.isPublic())) {
			long age = entry.ageMillis(now);
			if (age < entry.freshMillis()) {
				Lookup answer = serve(entry, request, head, age, false, CacheTier.LOCAL, null);
				if (answer != null) {
					return answer;
				}
			}
			else if (age < entry.freshMillis() + entry.staleWhileRevalidateMillis()) {
				Ticket revalidation = head ? null : revalidation(key, page, request);
				Lookup answer = serve(entry, request, head, age, true, CacheTier.LOCAL, revalidation);
				if (answer != null) {
					return answer;
				}
				if (revalidation != null) {
					revalidation.abandon();
				}
			}
			else if (age < entry.freshMillis() + entry.staleIfErrorMillis() && entry.tryRetain()) {
				fallback = entry;
			}
		}
		if (this.local.recentlyUncacheable(key)) {
			release(fallback);
			this.counters.count(CacheResult.UNCACHEABLE, CacheTier.LOCAL);
			return LookupRules.answer(BypassReason.RECENTLY_UNCACHEABLE);
		}
		if (head) {
			return new Lookup.Miss(new Ticket(this, request, page, null, Ticket.Role.HEAD, false, CacheTier.LOCAL, fallback));
		}
		Flight flight = new Flight(key, this.config.maxWaiters());
		Flight existing = this.flights.putIfAbsent(key, flight);
		if (existing != null) {
			return await(existing, request, page, executor, fallback);
		}
		boolean admitted = this.misses == null || this.misses.miss(key) >= this.config.admissionThreshold();
		if (this.sharedLookup != null && this.sharedLookup.available()) {
			return this.sharedLookup.read(executor, flight, request, page, admitted, fallback);
		}
		return new Lookup.Miss(new Ticket(this, request, page, flight, Ticket.Role.LEADER, admitted, CacheTier.LOCAL,
				fallback));
	}

	/**
	 * Answer from an entry: a 304 when the request's conditions match it, else a hit in the best coding the
	 * client accepts.
	 * @return the answer, or {@code null} when the entry was freed under the lookup (then it is a miss)
	 */
	private Lookup serve(CachedResponse entry, CacheRequest request, boolean head, long ageMillis, boolean stale,
			CacheTier tier, Ticket revalidation) {
		if (!stale && entry.status() == 200 && Conditions.notModified(request, entry)) {
			entry.hit();
			this.counters.count(CacheResult.HIT, tier);
			this.counters.add(CacheCounters.NOT_MODIFIED, 1);
			return new Lookup.NotModified(entry, ageMillis / 1000, tier);
		}
		Representation representation = this.variants.choose(entry, request, head);
		ByteBuf body = null;
		if (!head) {
			body = entry.retainedBody(representation);
			if (body == null) {
				return null;
			}
		}
		entry.hit();
		this.counters.count(stale ? CacheResult.STALE : CacheResult.HIT, tier);
		return new Lookup.Hit(entry, representation, body, ageMillis / 1000, stale, tier, revalidation);
	}

	/** A stale hit for stale-if-error, counted by the ticket that asks for it. */
	Lookup.Hit staleHit(CachedResponse entry, CacheRequest request) {
		boolean head = "HEAD".equals(request.method());
		Representation representation = this.variants.choose(entry, request, head);
		ByteBuf body = head ? null : entry.retainedBody(representation);
		if (!head && body == null) {
			return null;
		}
		entry.hit();
		return new Lookup.Hit(entry, representation, body, entry.ageMillis(this.clock.getAsLong()) / 1000, true,
				CacheTier.LOCAL, null);
	}

	private Lookup await(Flight flight, CacheRequest request, String page, EventExecutor executor,
			CachedResponse fallback) {
		Lookup.Deferred waiter = new Lookup.Deferred(executor, request);
		if (!flight.join(waiter)) {
			this.counters.add(CacheCounters.SINGLE_FLIGHT_OVERFLOWS, 1);
			return new Lookup.Miss(new Ticket(this, request, page, null, Ticket.Role.FOLLOWER, false, CacheTier.LOCAL,
					fallback));
		}
		release(fallback);
		this.counters.add(CacheCounters.SINGLE_FLIGHT_WAITS, 1);
		ScheduledFuture<?> timer = executor.schedule(() -> {
			if (waiter.complete(() -> follower(request, page))) {
				this.counters.add(CacheCounters.SINGLE_FLIGHT_TIMEOUTS, 1);
			}
		}, this.config.waitTimeout().toNanos(), TimeUnit.NANOSECONDS);
		waiter.onComplete(() -> timer.cancel(false));
		return waiter;
	}

	private Lookup follower(CacheRequest request, String page) {
		return new Lookup.Miss(new Ticket(this, request, page, null, Ticket.Role.FOLLOWER, false, CacheTier.LOCAL, null));
	}

	/**
	 * A render is over: its flight's waiters look the key up again, or render themselves. Without a local tier, the
	 * entry just stored answers them, and is let go once they have it.
	 * @param flight the flight, or {@code null} for a render that led none
	 * @param stored the entry stored, or {@code null}
	 */
	void land(Flight flight, CachedResponse stored, boolean uncacheable) {
		if (flight != null) {
			if (uncacheable) {
				this.local.markUncacheable(flight.key());
			}
			for (Lookup.Deferred waiter : endFlight(flight)) {
				if (this.localTier || stored == null) {
					waiter.complete(() -> afterFlight(waiter.request(), stored != null));
				}
				else {
					completeFrom(waiter, stored, CacheTier.LOCAL);
				}
			}
		}
		if (stored != null && !this.localTier) {
			stored.release();
		}
	}

	/**
	 * Take a flight off its key, so that the key's next request starts a flight of its own.
	 * @param flight the flight
	 * @return its waiters, each to be completed once
	 */
	List<Lookup.Deferred> endFlight(Flight flight) {
		this.flights.remove(flight.key(), flight);
		return flight.land();
	}

	/**
	 * Answer a waiter from an entry no tier holds (the local tier is off): the entry is held until the answer is
	 * made on the waiter's loop.
	 */
	void completeFrom(Lookup.Deferred waiter, CachedResponse entry, CacheTier tier) {
		if (!entry.tryRetain()) {
			waiter.complete(() -> follower(waiter.request(), PageKeys.page(waiter.request())));
			return;
		}
		if (!waiter.complete(() -> {
			try {
				Lookup answer = fromEntry(entry, waiter.request(), tier);
				return (answer != null) ? answer : follower(waiter.request(), PageKeys.page(waiter.request()));
			}
			finally {
				entry.release();
			}
		})) {
			entry.release();
		}
	}

	/** A fresh answer from an entry for a request it suits (its variant, its authorization), or {@code null}. */
	private Lookup fromEntry(CachedResponse entry, CacheRequest request, CacheTier tier) {
		String page = PageKeys.page(request);
		if (!PageKeys.entryKey(page, PageKeys.variant(entry.varyNames(), request)).equals(entry.key())) {
			return null;
		}
		boolean authorized = request.header("authorization") != null;
		long now = this.clock.getAsLong();
		if (entry.isFresh(now) && (!authorized || entry.isPublic())) {
			return serve(entry, request, "HEAD".equals(request.method()), entry.ageMillis(now), false, tier, null);
		}
		return null;
	}

	/** A waiter's answer once its flight landed: from the local tier if the render was stored, else a render. */
	Lookup afterFlight(CacheRequest request, boolean stored) {
		String page = PageKeys.page(request);
		if (stored) {
			Lookup answer = fromLocal(request, page, CacheTier.LOCAL);
			if (answer != null) {
				return answer;
			}
		}
		return follower(request, page);
	}

	/** A fresh answer from the local tier, or {@code null}. */
	Lookup fromLocal(CacheRequest request, String page, CacheTier tier) {
		Stored stored = this.local.get(page);
		if (stored instanceof VaryMarker marker) {
			stored = this.local.get(PageKeys.entryKey(page, PageKeys.variant(marker.names(), request)));
		}
		boolean authorized = request.header("authorization") != null;
		long now = this.clock.getAsLong();
		if (stored instanceof CachedResponse entry && entry.isFresh(now) && (!authorized || entry.isPublic())) {
			return serve(entry, request, "HEAD".equals(request.method()), entry.ageMillis(now), false, tier, null);
		}
		return null;
	}

	private Ticket revalidation(String key, String page, CacheRequest request) {
		Flight flight = new Flight(key, this.config.maxWaiters());
		if (this.flights.putIfAbsent(key, flight) != null) {
			return null;
		}
		return new Ticket(this, request, page, flight, Ticket.Role.REVALIDATION, true, CacheTier.LOCAL, null);
	}

	// Storing

	Cacheability.Decision decide(CacheRequest request, int status, String[] names, String[] values) {
		return this.cacheability.decide(request, status, names, values, this.clock.getAsLong());
	}

	/**
	 * Store a captured response.
	 * @return the entry, or {@code null} if it was refused; without a local tier, the caller holds the entry's one
	 * reference and hands it to {@link #land}
	 */
	CachedResponse store(CacheRequest request, String page, int status, String[] names, String[] values, ByteBuf body,
			Cacheability.Decision decision) {
		if (decision == null || !decision.storable()) {
			body.release();
			return null;
		}
		body = compact(body);
		CachedResponse.Metadata metadata = decision.metadata();
		String variant = PageKeys.variant(metadata.varyNames(), request);
		List<String> kept = new ArrayList<>(names.length);
		List<String> keptValues = new ArrayList<>(names.length);
		for (int i = 0; i < names.length; i++) {
			if (!names[i].equalsIgnoreCase("date") && !names[i].equalsIgnoreCase("age")) {
				kept.add(names[i]);
				keptValues.add(values[i]);
			}
		}
		CachedResponse entry = new CachedResponse(page, variant, status, kept.toArray(new String[0]),
				keptValues.toArray(new String[0]), body, metadata);
		long now = this.clock.getAsLong();
		long servable = entry.servableMillis(now);
		VaryMarker marker = metadata.varyNames().isEmpty() ? null
				: new VaryMarker(page, metadata.varyNames(), now + servable);
		if (this.localTier) {
			if (marker != null) {
				this.local.put(page, marker);
			}
			this.local.put(entry.key(), entry);
		}
		this.counters.add(CacheCounters.STORES, 1);
		if (this.shared != null) {
			this.shared.store(entry, marker, servable);
		}
		return entry;
	}

	private ByteBuf compact(ByteBuf body) {
		int length = body.readableBytes();
		if (body.capacity() - length <= (length >> 2) + 1024) {
			return body;
		}
		ByteBuf exact = this.alloc.directBuffer(length, length);
		exact.writeBytes(body, body.readerIndex(), length);
		body.release();
		return exact;
	}

	// Purges

	@Override
	public long purgeKey(String key) {
		return this.purges.purge(new Purge(Purge.Kind.KEY, key));
	}

	@Override
	public long purgePrefix(String prefix) {
		return this.purges.purge(new Purge(Purge.Kind.PREFIX, prefix));
	}

	@Override
	public long purgeTag(String tag) {
		return this.purges.purge(new Purge(Purge.Kind.TAG, tag));
	}

	@Override
	public long purgeAll() {
		return this.purges.purge(new Purge(Purge.Kind.ALL, ""));
	}

	// Figures

	@Override
	public PageCacheFigures figures() {
		return this.counters.figures(this.local.bytes(), this.config.maxSize(), this.local.size());
	}

	@Override
	public List<TopKey> topKeys(int limit) {
		return this.local.topKeys(limit);
	}

	/** Run the local tier's pending maintenance (evictions, expirations) now; for tests and figures. */
	void cleanUp() {
		this.local.cleanUp();
	}

	/**
	 * Drop every entry, releasing its memory, and close the shared tier.
	 */
	@Override
	public void close() {
		this.local.clear();
		if (this.shared != null) {
			this.shared.tier().close();
		}
	}

	static void release(CachedResponse entry) {
		if (entry != null) {
			entry.release();
		}
	}

}
