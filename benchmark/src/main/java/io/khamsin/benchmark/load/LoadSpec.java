package io.khamsin.benchmark.load;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * One load run: where, what, over how many connections, at what rate and for how long.
 *
 * @param address the server
 * @param request the request sent each time
 * @param connections the keep-alive connections the schedule is spread over, round robin; with
 * {@code connectionPerRequest} in closed loop, how many connections are open at once (each answered one is replaced
 * by a new one), otherwise ignored with {@code connectionPerRequest}
 * @param rate requests per second on the schedule; {@code 0} for closed loop (each connection sends its next
 * request as soon as the previous one is answered)
 * @param warmup how long the schedule runs before the measured window opens
 * @param duration the measured window
 * @param connectionPerRequest whether each request opens its own connection and closes it after the answer
 * @param drainTimeout how long after the window answers are awaited before the missing ones count as errors
 * @param tls the TLS client of every connection, or {@code null} for cleartext
 */
public record LoadSpec(InetSocketAddress address, RequestTemplate request, int connections, double rate,
		Duration warmup, Duration duration, boolean connectionPerRequest, Duration drainTimeout, ClientTls tls) {

	/** The most connections opened and not yet answered at once in connection-per-request mode. */
	public static final int MAX_CONNECTIONS_IN_FLIGHT = 4096;

	public LoadSpec {
		if (address == null) {
			throw new IllegalArgumentException("address must not be null");
		}
		if (request == null) {
			throw new IllegalArgumentException("request must not be null");
		}
		if (connections <= 0) {
			throw new IllegalArgumentException("connections must be positive, was " + connections);
		}
		if (rate < 0) {
			throw new IllegalArgumentException("rate must be >= 0 (0: closed loop), was " + rate);
		}
		if (duration == null || duration.isZero() || duration.isNegative()) {
			throw new IllegalArgumentException("duration must be positive, was " + duration);
		}
		warmup = (warmup != null) ? warmup : Duration.ZERO;
		drainTimeout = (drainTimeout != null) ? drainTimeout : Duration.ofSeconds(2);
	}

	/**
	 * Open-loop keep-alive load.
	 */
	public static LoadSpec openLoop(InetSocketAddress address, RequestTemplate request, int connections,
			double rate, Duration warmup, Duration duration) {
		return new LoadSpec(address, request, connections, rate, warmup, duration, false, null, null);
	}

	/**
	 * Closed-loop keep-alive load: as many requests as the connections can carry.
	 */
	public static LoadSpec closedLoop(InetSocketAddress address, RequestTemplate request, int connections,
			Duration warmup, Duration duration) {
		return new LoadSpec(address, request, connections, 0, warmup, duration, false, null, null);
	}

	/**
	 * Open-loop load with a new connection per request.
	 */
	public static LoadSpec connectionPerRequest(InetSocketAddress address, RequestTemplate request, double rate,
			Duration warmup, Duration duration) {
		return new LoadSpec(address, request.withHeader("Connection", "close"), 1, rate, warmup, duration, true,
				null, null);
	}

	/**
	 * Closed-loop load with a new connection per request: {@code connections} connections open at once, each
	 * replaced by a new one as soon as its request is answered (the handshake rate of a TLS server, for example).
	 */
	public static LoadSpec connectionPerRequestClosedLoop(InetSocketAddress address, RequestTemplate request,
			int connections, Duration warmup, Duration duration) {
		return new LoadSpec(address, request.withHeader("Connection", "close"), connections, 0, warmup, duration,
				true, null, null);
	}

	/** @return this run at another rate */
	public LoadSpec withRate(double rate) {
		return new LoadSpec(this.address, this.request, this.connections, rate, this.warmup, this.duration,
				this.connectionPerRequest, this.drainTimeout, this.tls);
	}

	/** @return this run with another drain timeout */
	public LoadSpec withDrainTimeout(Duration drainTimeout) {
		return new LoadSpec(this.address, this.request, this.connections, this.rate, this.warmup, this.duration,
				this.connectionPerRequest, drainTimeout, this.tls);
	}

	/** @return this run over TLS with {@code tls} ({@code null}: cleartext) */
	public LoadSpec withTls(ClientTls tls) {
		return new LoadSpec(this.address, this.request, this.connections, this.rate, this.warmup, this.duration,
				this.connectionPerRequest, this.drainTimeout, tls);
	}

	/** @return whether this run is closed loop */
	public boolean closedLoop() {
		return this.rate == 0;
	}

}
