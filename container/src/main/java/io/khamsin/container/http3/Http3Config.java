package io.khamsin.container.http3;

import java.time.Duration;

/**
 * The HTTP/3 settings of a server (RFC 9114) and of the QUIC connections under it (RFC 9000): whether it serves
 * HTTP/3, the transport parameters it advertises, and how it admits new connections. Every option has its default
 * written next to it in {@link Builder}; {@link #defaults()} does not serve HTTP/3.
 *
 * @param enabled whether the server serves HTTP/3 on UDP, on the port number of its TLS listener
 * @param idleTimeout how long a connection may stay without a packet before it is closed ({@code max_idle_timeout})
 * @param maxBidirectionalStreams the most request streams a client may open at once
 * ({@code initial_max_streams_bidi}); QUIC's flow control holds back the rest, no stream is refused
 * @param maxUnidirectionalStreams the most unidirectional streams a client may open (control and QPACK streams need
 * three; {@code initial_max_streams_uni})
 * @param initialMaxData how many bytes of request bodies all streams of a connection take before the application
 * reads them ({@code initial_max_data})
 * @param initialMaxStreamData how many bytes of a request body one stream takes before the application reads them
 * ({@code initial_max_stream_data_bidi_remote}), and of a response the client takes first
 * @param maxUdpPayloadSize the largest UDP payload the server sends and receives ({@code max_udp_payload_size})
 * @param receiveBufferSize the receive buffer each UDP socket asks of the kernel ({@code SO_RCVBUF}): packets that
 * arrive while it is full are dropped, and QUIC must detect and resend them
 * @param congestionControl the congestion controller of each connection
 * @param maxResetsPerWindow the most request streams a client may end before their responses (resetting them,
 * stopping them, or making the server reset them) within {@code resetWindow}, as on HTTP/2 (Rapid Reset,
 * CVE-2023-44487): more close the connection with {@code H3_EXCESSIVE_LOAD}
 * @param resetWindow the window of {@code maxResetsPerWindow}
 * @param earlyData whether a resuming client may send requests in 0-RTT early data (off: such data can be replayed by
 * an attacker, see the README)
 * @param retry whether a new client must first echo a retry token bound to its address (RFC 9000, section 8.1), so
 * that a spoofed address cannot make the server send a handshake's worth of packets to a victim
 * @param altSvcMaxAge how long clients may remember that HTTP/3 is served ({@code Alt-Svc: h3=":port"; ma=...} on
 * HTTP/1.1 and HTTP/2 responses)
 */
public record Http3Config(boolean enabled, Duration idleTimeout, int maxBidirectionalStreams,
		int maxUnidirectionalStreams, long initialMaxData, long initialMaxStreamData, int maxUdpPayloadSize,
		int receiveBufferSize, CongestionControl congestionControl, int maxResetsPerWindow, Duration resetWindow, boolean earlyData, boolean retry, Duration altSvcMaxAge) {

	/** Default idle timeout: 30 seconds. */
	public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

	/** Default most concurrent request streams: 100, as HTTP/2's. */
	public static final int DEFAULT_MAX_BIDIRECTIONAL_STREAMS = 100;

	/** Default most unidirectional streams: 3 (control, QPACK encoder and decoder). */
	public static final int DEFAULT_MAX_UNIDIRECTIONAL_STREAMS = 3;

	/** Default connection window: 10 MiB. */
	public static final long DEFAULT_INITIAL_MAX_DATA = 10L * 1024 * 1024;

	/** Default stream window: 1 MiB. */
	public static final long DEFAULT_INITIAL_MAX_STREAM_DATA = 1024 * 1024;

	/** Default largest UDP payload: 1,350 bytes, which crosses the common paths without fragmenting. */
	public static final int DEFAULT_MAX_UDP_PAYLOAD_SIZE = 1350;

	/**
	 * Default UDP receive buffer: 4 MiB. The kernel's default (208 KiB on Linux) filled and dropped about a third of
	 * the packets under the benchmark's 64 connections; the kernel caps the size at {@code net.core.rmem_max}.
	 */
	public static final int DEFAULT_RECEIVE_BUFFER_SIZE = 4 * 1024 * 1024;

	/** Default most streams ended early per window: 200, as HTTP/2's. */
	public static final int DEFAULT_MAX_RESETS_PER_WINDOW = 200;

	/** Default window of {@code maxResetsPerWindow}: 30 seconds, as HTTP/2's. */
	public static final Duration DEFAULT_RESET_WINDOW = Duration.ofSeconds(30);

	/** Default how long clients remember HTTP/3: 24 hours, as browsers' own default. */
	public static final Duration DEFAULT_ALT_SVC_MAX_AGE = Duration.ofHours(24);

	/** The smallest UDP payload QUIC allows (RFC 9000, section 14). */
	static final int MIN_UDP_PAYLOAD_SIZE = 1200;

	public Http3Config {
		if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
			throw new IllegalArgumentException("idleTimeout must be positive, was " + idleTimeout);
		}
		if (maxBidirectionalStreams < 1) {
			throw new IllegalArgumentException("maxBidirectionalStreams must be positive, was " + maxBidirectionalStreams);
		}
		if (maxUnidirectionalStreams < 3) {
			throw new IllegalArgumentException("maxUnidirectionalStreams must be at least 3 (control and QPACK streams), was "
					+ maxUnidirectionalStreams);
		}
		if (initialMaxData < 1 || initialMaxStreamData < 1) {
			throw new IllegalArgumentException("initialMaxData and initialMaxStreamData must be positive, were "
					+ initialMaxData + " and " + initialMaxStreamData);
		}
		if (maxUdpPayloadSize < MIN_UDP_PAYLOAD_SIZE || maxUdpPayloadSize > 65_527) {
			throw new IllegalArgumentException("maxUdpPayloadSize must be between " + MIN_UDP_PAYLOAD_SIZE
					+ " and 65527, was " + maxUdpPayloadSize);
		}
		if (receiveBufferSize < 1) {
			throw new IllegalArgumentException("receiveBufferSize must be positive, was " + receiveBufferSize);
		}
		if (maxResetsPerWindow < 1) {
			throw new IllegalArgumentException("maxResetsPerWindow must be positive, was " + maxResetsPerWindow);
		}
		if (resetWindow == null || resetWindow.isNegative() || resetWindow.isZero()) {
			throw new IllegalArgumentException("resetWindow must be positive, was " + resetWindow);
		}
		if (congestionControl == null) {
			throw new IllegalArgumentException("congestionControl must not be null");
		}
		if (altSvcMaxAge == null || altSvcMaxAge.isNegative()) {
			throw new IllegalArgumentException("altSvcMaxAge must not be negative, was " + altSvcMaxAge);
		}
	}

	/** @return the defaults: HTTP/3 off */
	public static Http3Config defaults() {
		return builder().build();
	}

	/** @return a builder with the defaults */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * The {@code Alt-Svc} value that announces HTTP/3 on a port.
	 * @param port the UDP port
	 * @return e.g. {@code h3=":8443"; ma=86400}
	 */
	public String altSvc(int port) {
		return "h3=\":" + port + "\"; ma=" + this.altSvcMaxAge.toSeconds();
	}

	/** The congestion controllers QUIC offers. */
	public enum CongestionControl {

		/** CUBIC (RFC 9438), quiche's default. */
		CUBIC,

		/** NewReno (RFC 9002). */
		RENO,

		/** BBR. */
		BBR

	}

	/** Builds an {@link Http3Config}. */
	public static final class Builder {

		private boolean enabled;

		private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;

		private int maxBidirectionalStreams = DEFAULT_MAX_BIDIRECTIONAL_STREAMS;

		private int maxUnidirectionalStreams = DEFAULT_MAX_UNIDIRECTIONAL_STREAMS;

		private long initialMaxData = DEFAULT_INITIAL_MAX_DATA;

		private long initialMaxStreamData = DEFAULT_INITIAL_MAX_STREAM_DATA;

		private int maxUdpPayloadSize = DEFAULT_MAX_UDP_PAYLOAD_SIZE;

		private int receiveBufferSize = DEFAULT_RECEIVE_BUFFER_SIZE;

		private int maxResetsPerWindow = DEFAULT_MAX_RESETS_PER_WINDOW;

		private Duration resetWindow = DEFAULT_RESET_WINDOW;

		private CongestionControl congestionControl = CongestionControl.CUBIC;

		private boolean earlyData;

		private boolean retry = true;

		private Duration altSvcMaxAge = DEFAULT_ALT_SVC_MAX_AGE;

		private Builder() {
		}

		public Builder enabled(boolean enabled) {
			this.enabled = enabled;
			return this;
		}

		public Builder idleTimeout(Duration idleTimeout) {
			this.idleTimeout = idleTimeout;
			return this;
		}

		public Builder maxBidirectionalStreams(int maxBidirectionalStreams) {
			this.maxBidirectionalStreams = maxBidirectionalStreams;
			return this;
		}

		public Builder maxUnidirectionalStreams(int maxUnidirectionalStreams) {
			this.maxUnidirectionalStreams = maxUnidirectionalStreams;
			return this;
		}

		public Builder initialMaxData(long initialMaxData) {
			this.initialMaxData = initialMaxData;
			return this;
		}

		public Builder initialMaxStreamData(long initialMaxStreamData) {
			this.initialMaxStreamData = initialMaxStreamData;
			return this;
		}

		public Builder maxUdpPayloadSize(int maxUdpPayloadSize) {
			this.maxUdpPayloadSize = maxUdpPayloadSize;
			return this;
		}

		public Builder receiveBufferSize(int receiveBufferSize) {
			this.receiveBufferSize = receiveBufferSize;
			return this;
		}

		public Builder maxResetsPerWindow(int maxResetsPerWindow) {
			this.maxResetsPerWindow = maxResetsPerWindow;
			return this;
		}

		public Builder resetWindow(Duration resetWindow) {
			this.resetWindow = resetWindow;
			return this;
		}

		public Builder congestionControl(CongestionControl congestionControl) {
			this.congestionControl = congestionControl;
			return this;
		}

		public Builder earlyData(boolean earlyData) {
			this.earlyData = earlyData;
			return this;
		}

		public Builder retry(boolean retry) {
			this.retry = retry;
			return this;
		}

		public Builder altSvcMaxAge(Duration altSvcMaxAge) {
			this.altSvcMaxAge = altSvcMaxAge;
			return this;
		}

		public Http3Config build() {
			return new Http3Config(this.enabled, this.idleTimeout, this.maxBidirectionalStreams,
					this.maxUnidirectionalStreams, this.initialMaxData, this.initialMaxStreamData,
					this.maxUdpPayloadSize, this.receiveBufferSize, this.congestionControl, this.maxResetsPerWindow,
					this.resetWindow, this.earlyData, this.retry, this.altSvcMaxAge);
		}

	}

}
