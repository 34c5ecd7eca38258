package io.khamsin.container.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The figures of one reactor (event loop), written only by its thread: plain counters published with release
 * stores, and one HdrHistogram {@link SingleWriterRecorder} per combination of latency tags, created the first
 * time the combination is recorded. {@link KhamsinMetrics} merges the reactors when read. Connections are counted
 * by the transport when accepted and closed, requests by the exchange stage when they start and end, each on its
 * own, so that a request may end in any order and on a stream of a connection as well as on the connection.
 */
public final class ReactorMetrics {

	static final int CONNECTIONS_ACCEPTED = 0;

	static final int CONNECTIONS_CLOSED = 1;

	static final int CONNECTIONS_REFUSED = 2;

	static final int REQUESTS_STARTED = 3;

	static final int REQUESTS_ENDED = 4;

	static final int BYTES_RECEIVED = 5;

	static final int BYTES_SENT = 6;

	private static final int COUNTERS = 7;

	// Padding on both sides keeps two reactors' counters off the same cache line.
	private static final int PAD = 8;

	private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

	/** Latencies are recorded in nanoseconds with a resolution of one microsecond, up to one hour. */
	static final long LOWEST_DISCERNIBLE_NANOS = 1_000;

	static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

	/**
	 * Two significant digits (1%) keep a histogram near 26 KB; three would take 200 KB per tag combination and
	 * reactor, for a precision no HTTP latency needs.
	 */
	static final int SIGNIFICANT_DIGITS = 2;

	private final String name;

	private final EventExecutor executor;

	private final boolean enabled;

	private final RouteTable routes;

	private final long[] counts = new long[PAD + COUNTERS + PAD];

	private final AtomicReferenceArray<SingleWriterRecorder> recorders;

	private final TrafficCounter trafficCounter;

	private final QuicCounters quic;

	private Histogram[] drained;

	ReactorMetrics(String name, EventExecutor executor, boolean enabled, RouteTable routes) {
		this.name = name;
		this.executor = executor;
		this.enabled = enabled;
		this.routes = routes;
		this.recorders = new AtomicReferenceArray<>(enabled ? LatencyKey.count(routes.capacity()) : 0);
		this.trafficCounter = new TrafficCounter(this);
		this.quic = new QuicCounters(name);
	}

	/** @return the reactor's name (its thread's name) */
	public String name() {
		return this.name;
	}

	/** @return whether requests are recorded */
	public boolean enabled() {
		return this.enabled;
	}

	/**
	 * Count a request that is being served. Call on the reactor's thread only, as every method below.
	 */
	public void requestStarted() {
		if (this.enabled) {
			add(REQUESTS_STARTED, 1);
		}
	}

	/**
	 * Count a request that ended without a latency: cut off before its response was out, or refused.
	 */
	public void requestEnded() {
		if (this.enabled) {
			add(REQUESTS_ENDED, 1);
		}
	}

	/**
	 * Count a request whose last response byte was handed to the kernel now, and record its latency under its
	 * tags, e.g. a fixed response: {@code reactor.requestEnded(Protocol.H1, 200, Route.FIXED, RequestPath.FAST, start)}.
	 * Nothing is allocated once the tags' recorder exists.
	 * @param protocol the protocol it came on
	 * @param status the response status
	 * @param route the route, or WebFlux's best matching pattern (a {@code PathPattern} or a string), or
	 * {@code null} for {@link Route#OTHER}
	 * @param path the path through the engine
	 * @param startNanos {@link System#nanoTime()} at the first byte of its head
	 */
	public void requestEnded(Protocol protocol, int status, Object route, RequestPath path, long startNanos) {
		requestEnded(latencyKey(protocol, status, route, path), startNanos);
	}

	/**
	 * The tags of a latency resolved to the key of their recorder, for a response whose tags are known before it
	 * has left: the key takes less room than the tags while the response waits.
	 * @param protocol the protocol
	 * @param status the response status
	 * @param route the route or pattern, or {@code null}
	 * @param path the path through the engine
	 * @return the key, for {@link #requestEnded(int, long)}
	 */
	public int latencyKey(Protocol protocol, int status, Object route, RequestPath path) {
		return LatencyKey.index(protocol, status, this.routes.resolve(route), path);
	}

	/**
	 * Count a request whose last response byte was handed to the kernel now, and record its latency.
	 * @param latencyKey the key of its tags ({@link #latencyKey})
	 * @param startNanos {@link System#nanoTime()} at the first byte of its head
	 */
	public void requestEnded(int latencyKey, long startNanos) {
		if (this.enabled) {
			recordLatency(latencyKey, System.nanoTime() - startNanos);
			add(REQUESTS_ENDED, 1);
		}
	}

	/**
	 * Count bytes read from a connection (by its protocol's decoder, which saves every read a pipeline step).
	 * @param bytes how many
	 */
	public void bytesReceived(int bytes) {
		if (this.enabled) {
			add(BYTES_RECEIVED, bytes);
		}
	}

	void recordLatency(int key, long nanos) {
		SingleWriterRecorder recorder = this.recorders.getPlain(key);
		if (recorder == null) {
			recorder = new SingleWriterRecorder(LOWEST_DISCERNIBLE_NANOS, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
			this.recorders.setRelease(key, recorder);
		}
		recorder.recordValue(Math.min(Math.max(nanos, 0), HIGHEST_TRACKABLE_NANOS));
	}

	void add(int counter, long delta) {
		int index = PAD + counter;
		COUNTS.setRelease(this.counts, index, this.counts[index] + delta);
	}

	long get(int counter) {
		return (long) COUNTS.getAcquire(this.counts, PAD + counter);
	}

	/**
	 * Count a connection admitted on this reactor.
	 */
	public void connectionAccepted() {
		add(CONNECTIONS_ACCEPTED, 1);
	}

	/**
	 * Count a connection of this reactor that closed.
	 */
	public void connectionClosed() {
		add(CONNECTIONS_CLOSED, 1);
	}

	/**
	 * Count a connection refused on this reactor (too many open, or shutting down).
	 */
	public void connectionRefused() {
		add(CONNECTIONS_REFUSED, 1);
	}

	/**
	 * The handler that counts the bytes written to this reactor's connections, to place first in their pipelines.
	 * @return the handler, shared by the reactor's connections
	 */
	public TrafficCounter trafficCounter() {
		return this.trafficCounter;
	}

	/** @return the QUIC figures of this reactor, written by its thread only */
	public QuicCounters quic() {
		return this.quic;
	}

	/**
	 * Take the latencies recorded since the last call, for one tag combination. Called by
	 * {@link KhamsinMetrics} only, one call at a time.
	 */
	Histogram drain(int key) {
		SingleWriterRecorder recorder = this.recorders.get(key);
		if (recorder == null) {
			return null;
		}
		if (this.drained == null) {
			this.drained = new Histogram[this.recorders.length()];
		}
		Histogram interval = recorder.getIntervalHistogram(this.drained[key]);
		this.drained[key] = interval;
		return interval;
	}

	ReactorSnapshot snapshot() {
		long accepted = get(CONNECTIONS_ACCEPTED);
		long closed = get(CONNECTIONS_CLOSED);
		long started = get(REQUESTS_STARTED);
		long ended = get(REQUESTS_ENDED);
		int pending = (this.executor instanceof SingleThreadEventExecutor loop) ? loop.pendingTasks() : 0;
		return new ReactorSnapshot(this.name, Math.max(0, accepted - closed), accepted, closed,
				get(CONNECTIONS_REFUSED), Math.max(0, started - ended), ended, get(BYTES_RECEIVED), get(BYTES_SENT),
				pending);
	}

}
