package io.khamsin.container.metrics;

import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.util.concurrent.EventExecutor;
import org.HdrHistogram.Histogram;

import io.khamsin.container.egress.EgressCounters;
import io.khamsin.container.guard.GuardCounters;

/**
 * The figures of a server (or of several servers that share them): one {@link ReactorMetrics} per event loop,
 * written by that loop alone, merged here when read. Reading drains each reactor's latency recorders into
 * histograms kept since start and per interval, and hands the new latencies to the {@link LatencyListener}s.
 */
public final class KhamsinMetrics {

	private final MetricsConfig config;

	private final RouteTable routes;

	private final GuardCounters guards = new GuardCounters();

	private final EgressCounters egress = new EgressCounters();

	private final TlsFigures tls = TlsFigures.create();

	private final Instant started = Instant.now();

	private final List<ReactorMetrics> all = new CopyOnWriteArrayList<>();

	private final ReactorMetrics unbound;

	private final List<LatencyListener> listeners = new CopyOnWriteArrayList<>();

	private volatile Map<EventExecutor, ReactorMetrics> live = Map.of();

	private volatile List<ReactorMetrics> liveList = List.of();

	private int named;

	// The state below is guarded by this.

	private final LatencyKey[] keys;

	private final Histogram[] sinceStart;

	private Histogram[] current;

	private Histogram[] last;

	private final Histogram[] merged;

	private Instant currentStart = this.started;

	private Instant lastStart;

	private Instant lastEnd;

	private KhamsinMetrics(MetricsConfig config) {
		this.config = config;
		this.routes = new RouteTable(config.maxRoutes());
		this.unbound = new ReactorMetrics("unbound", null, config.enabled(), this.routes);
		this.all.add(this.unbound);
		int count = config.enabled() ? LatencyKey.count(this.routes.capacity()) : 0;
		this.keys = new LatencyKey[count];
		this.sinceStart = new Histogram[count];
		this.current = new Histogram[count];
		this.last = new Histogram[count];
		this.merged = new Histogram[count];
	}

	/**
	 * Create the figures of a server.
	 * @param config what to record
	 * @return the figures
	 */
	public static KhamsinMetrics create(MetricsConfig config) {
		if (config == null) {
			throw new IllegalArgumentException("config must not be null");
		}
		return new KhamsinMetrics(config);
	}

	/** @return the configuration */
	public MetricsConfig config() {
		return this.config;
	}

	/** @return whether requests, latencies and bytes are recorded */
	public boolean enabled() {
		return this.config.enabled();
	}

	/** @return the counts of each guard */
	public GuardCounters guards() {
		return this.guards;
	}

	/** @return how many file bodies left by each way, and why */
	public EgressCounters egress() {
		return this.egress;
	}

	/** @return the handshakes of the TLS listeners: full, resumed and failed by reason */
	public TlsFigures tls() {
		return this.tls;
	}

	/**
	 * Give each event loop of a starting server its own figures.
	 * @param loops the event loops
	 */
	public synchronized void reactorsStarted(Iterable<? extends EventExecutor> loops) {
		if (this.liveList.isEmpty()) {
			// A restarted server names its reactors as before; their counts join those of the stopped ones.
			this.named = 0;
		}
		Map<EventExecutor, ReactorMetrics> live = new IdentityHashMap<>(this.live);
		List<ReactorMetrics> liveList = new ArrayList<>(this.liveList);
		for (EventExecutor loop : loops) {
			ReactorMetrics reactor = new ReactorMetrics("reactor-" + this.named++, loop, enabled(), this.routes);
			live.put(loop, reactor);
			liveList.add(reactor);
			this.all.add(reactor);
		}
		this.live = live;
		this.liveList = List.copyOf(liveList);
	}

	/**
	 * The event loops of a server stopped; their counts stay in the totals.
	 * @param loops the event loops
	 */
	public synchronized void reactorsStopped(Iterable<? extends EventExecutor> loops) {
		Map<EventExecutor, ReactorMetrics> live = new IdentityHashMap<>(this.live);
		List<ReactorMetrics> liveList = new ArrayList<>(this.liveList);
		for (EventExecutor loop : loops) {
			liveList.remove(live.remove(loop));
		}
		this.live = live;
		this.liveList = List.copyOf(liveList);
	}

	/**
	 * The figures of the reactor that runs an event loop; a loop that no server started (a test's embedded
	 * channel) shares one set of figures.
	 * @param loop the event loop
	 * @return its figures
	 */
	public ReactorMetrics reactor(EventExecutor loop) {
		ReactorMetrics reactor = this.live.get(loop);
		return (reactor != null) ? reactor : this.unbound;
	}

	/** @return the figures of each running reactor */
	public List<ReactorSnapshot> reactors() {
		List<ReactorSnapshot> snapshots = new ArrayList<>();
		for (ReactorMetrics reactor : this.liveList) {
			snapshots.add(reactor.snapshot());
		}
		return snapshots;
	}

	/** @return the sum of every reactor's figures since start, reactors since stopped included */
	public ReactorSnapshot totals() {
		ReactorSnapshot totals = new ReactorSnapshot("total", 0, 0, 0, 0, 0, 0, 0, 0, 0);
		for (ReactorMetrics reactor : this.all) {
			totals = totals.plus(reactor.snapshot());
		}
		return totals;
	}

	/** @return the QUIC figures of each running reactor */
	public List<QuicSnapshot> quic() {
		List<QuicSnapshot> snapshots = new ArrayList<>();
		for (ReactorMetrics reactor : this.liveList) {
			snapshots.add(reactor.quic().snapshot());
		}
		return snapshots;
	}

	/** @return the sum of every reactor's QUIC figures since start, reactors since stopped included */
	public QuicSnapshot quicTotals() {
		QuicSnapshot totals = QuicSnapshot.empty("total");
		for (ReactorMetrics reactor : this.all) {
			totals = totals.plus(reactor.quic().snapshot());
		}
		return totals;
	}

	/**
	 * Register a listener of new latencies; it hears every drain from now on.
	 * @param listener the listener
	 */
	public void addLatencyListener(LatencyListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("listener must not be null");
		}
		this.listeners.add(listener);
	}

	/**
	 * Remove a listener.
	 * @param listener the listener
	 */
	public void removeLatencyListener(LatencyListener listener) {
		this.listeners.remove(listener);
	}

	/**
	 * The latencies since start and of the last complete interval, after a drain.
	 * @return a snapshot the caller owns
	 */
	public synchronized LatencySnapshot latency() {
		drain();
		Map<LatencyKey, Histogram> lastInterval = new LinkedHashMap<>();
		Map<LatencyKey, Histogram> sinceStart = new LinkedHashMap<>();
		for (int i = 0; i < this.sinceStart.length; i++) {
			if (this.sinceStart[i] != null) {
				sinceStart.put(key(i), this.sinceStart[i].copy());
			}
			if (this.last[i] != null) {
				lastInterval.put(key(i), this.last[i].copy());
			}
		}
		return new LatencySnapshot(this.started, this.lastStart, this.lastEnd, lastInterval, sinceStart);
	}

	/**
	 * Move the latencies each reactor recorded since the last drain into the histograms kept here, tell the
	 * listeners, and start a new interval when the current one is over. Called by readers, never by a reactor.
	 */
	public synchronized void drain() {
		for (int key = 0; key < this.keys.length; key++) {
			Histogram merged = null;
			for (ReactorMetrics reactor : this.all) {
				Histogram interval = reactor.drain(key);
				if (interval != null && interval.getTotalCount() > 0) {
					if (merged == null) {
						merged = reuse(this.merged, key);
					}
					merged.add(interval);
				}
			}
			if (merged != null) {
				reuse(this.sinceStart, key).add(merged);
				reuse(this.current, key).add(merged);
				for (LatencyListener listener : this.listeners) {
					listener.onLatencies(key(key), merged);
				}
			}
		}
		Instant now = Instant.now();
		if (!now.isBefore(this.currentStart.plus(this.config.interval()))) {
			this.last = this.current;
			this.current = new Histogram[this.keys.length];
			this.lastStart = this.currentStart;
			this.lastEnd = now;
			this.currentStart = now;
		}
	}

	private Histogram reuse(Histogram[] histograms, int key) {
		Histogram histogram = histograms[key];
		if (histogram == null) {
			histogram = newHistogram();
			histograms[key] = histogram;
		}
		else if (histograms == this.merged) {
			histogram.reset();
		}
		return histogram;
	}

	private static Histogram newHistogram() {
		return new Histogram(ReactorMetrics.LOWEST_DISCERNIBLE_NANOS, ReactorMetrics.HIGHEST_TRACKABLE_NANOS,
				ReactorMetrics.SIGNIFICANT_DIGITS);
	}

	private LatencyKey key(int index) {
		LatencyKey key = this.keys[index];
		if (key == null) {
			key = LatencyKey.of(index, this.routes);
			this.keys[index] = key;
		}
		return key;
	}

}
