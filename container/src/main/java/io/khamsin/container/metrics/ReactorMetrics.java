package io.khamsin.container.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import io.khamsin.container.accesslog.AccessLog;

/**
 * The figures of one reactor (event loop), written only by its thread: plain counters published with release
 * stores, and one HdrHistogram {@link SingleWriterRecorder} per combination of latency tags, created the first
 * time the combination is recorded. {@link KhamsinMetrics} merges the reactors when read.
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

	private Histogram[] drained;

	ReactorMetrics(String name, EventExecutor executor, boolean enabled, RouteTable routes) {
		this.name = name;
		this.executor = executor;
		this.enabled = enabled;
		this.routes = routes;
		this.recorders = new AtomicReferenceArray<>(enabled ? LatencyKey.count(routes.capacity()) : 0);
		this.trafficCounter = new TrafficCounter(this);
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
	 * Record one request whose last response byte was handed to the kernel now, e.g. from a fixed-response
	 * fast path: {@code reactor.recordRequest(start, 200, Route.FIXED, RequestPath.FAST)}. Call on the
	 * reactor's thread only.
	 * @param startNanos {@link System#nanoTime()} at the first byte of the request head
	 * @param status the response status
	 * @param route the route
	 * @param path the path through the engine
	 */
	public void recordRequest(long startNanos, int status, Route route, RequestPath path) {
		if (this.enabled) {
			add(REQUESTS_STARTED, 1);
			add(REQUESTS_ENDED, 1);
			recordLatency(LatencyKey.index(Protocol.H1, status, route, path), System.nanoTime() - startNanos);
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

	/**
	 * The figures of a new connection on this reactor.
	 * @param protocol the connection's protocol
	 * @return the connection's figures
	 */
	public ConnectionFigures newConnection(Protocol protocol) {
		return newConnection(protocol, null);
	}

	/**
	 * The figures of a new connection on this reactor, which also writes the access log.
	 * @param protocol the connection's protocol
	 * @param accessLog the access log, or {@code null} when it is off
	 * @return the connection's figures
	 */
	public ConnectionFigures newConnection(Protocol protocol, AccessLog accessLog) {
		return new ConnectionFigures(this, protocol, this.routes, accessLog);
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
