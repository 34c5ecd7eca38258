package io.khamsin.boot.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.egress.KernelTlsMode;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.transport.ListenerMode;
import io.khamsin.container.transport.Transport;

/**
 * Configuration of the khamsin server ({@code khamsin.*}). Each default equals the engine's default in
 * {@link KhamsinServerConfig}. The largest request head is Boot's {@code server.max-http-request-header-size}.
 *
 * @param enabled Whether khamsin serves the reactive web application. When false, Spring Boot's default reactive
 * server (Reactor Netty) is used instead.
 * @param reactors Number of reactors (event loops) that accept and serve connections. Defaults to the number of
 * available processors.
 * @param transport I/O transport. 'auto' takes io_uring, else epoll, else NIO, and logs why a better one was not
 * available; with HTTP/2 enabled (over TLS or h2c) it takes epoll first, where HTTP/2 does better.
 * @param listener Listener mode. 'reuseport' binds one SO_REUSEPORT socket per reactor (io_uring and epoll only,
 * NIO falls back to 'shared'); 'shared' binds one socket whose connections are handed to the reactors.
 * @param maxInitialLineLength Longest request line accepted. Longer ones are answered 414.
 * @param idleTimeout How long a keep-alive connection may stay idle between requests before it is closed.
 * @param headerReadTimeout How long a client may take to send a request head. Slower ones are answered 408 and
 * closed.
 * @param bodyReadTimeout How long a request body may stall while the application waits for it. Slower ones are
 * answered 408 and closed.
 * @param minRequestBodyRate Slowest a request body may arrive, per second, averaged from its start once its first 5
 * seconds are over. Slower ones (a slow-POST attack) are answered 408 and closed; 0B for no minimum.
 * @param sendTimeout How long a connection's socket may take none of its response (a client that stopped reading, or
 * a slow-read attack) before the connection is closed.
 * @param requestTimeout How long the application may take to begin a response before it is cancelled and the client
 * answered 503. Unset: no limit (a long poll may wait for its event).
 * @param maxConnections Most connections open at once. New ones beyond it are closed at once.
 * @param maxRequestBodySize Largest request body accepted. Larger ones are answered 413; -1 for no limit.
 * @param overload Admission control: what happens to requests beyond the server's capacity.
 * @param websocket WebSocket settings.
 * @param http2 HTTP/2 settings, applied when server.http2.enabled is true.
 * @param http3 HTTP/3 settings: whether HTTP/3 is served over QUIC, on server.port over UDP, with server.ssl.
 * @param egress How response bodies leave the server.
 * @param fixedResponses Responses khamsin gives itself to GET and HEAD requests of their paths, without entering the
 * application: health and status routes and the like.
 */
@ConfigurationProperties("khamsin")
public record KhamsinProperties(@DefaultValue("true") boolean enabled, Integer reactors,
		@DefaultValue("auto") Transport transport, @DefaultValue("reuseport") ListenerMode listener,
		@DefaultValue("4096B") DataSize maxInitialLineLength, @DefaultValue("60s") Duration idleTimeout,
		@DefaultValue("10s") Duration headerReadTimeout, @DefaultValue("30s") Duration bodyReadTimeout,
		@DefaultValue("240B") DataSize minRequestBodyRate, @DefaultValue("30s") Duration sendTimeout, Duration requestTimeout,
		@DefaultValue("10000") int maxConnections, @DefaultValue("-1B") DataSize maxRequestBodySize,
		@DefaultValue OverloadProperties overload, @DefaultValue WebSocketProperties websocket, @DefaultValue Http2Properties http2,
		@DefaultValue Http3Properties http3, @DefaultValue EgressProperties egress,
		List<FixedResponseProperties> fixedResponses) {

	public KhamsinProperties {
		fixedResponses = (fixedResponses != null) ? List.copyOf(fixedResponses) : List.of();
	}

	/**
	 * How response bodies leave the server.
	 *
	 * @param ktls Kernel TLS for file bodies over TLS 1.3: after the handshake the connection's sending keys go to the
	 * kernel, which then seals what is written, so files leave by sendfile. 'auto' engages it only where it pays: the
	 * kernel offers the tls ULP and the interface the connection leaves by has TLS TX offload (loopback and virtual
	 * NICs have none, so there TLS stays in user space). 'on' engages it wherever the kernel allows (kernel TLS
	 * connections run their handshake in Bouncy Castle and are never resumed). 'off' never.
	 * @param precompressedZstd Whether static resources also have zstd siblings ('.zst') served to clients that
	 * accept zstd, beside the Brotli and gzip ones of spring.web.resources.chain.compressed, which must be true too.
	 * @param ifRange Whether a GET with Range and If-Range gets its range only while If-Range matches the response's
	 * strong ETag or its Last-Modified, and the whole representation otherwise (RFC 9110, section 13.1.5), for Spring's
	 * resource handling and any handler that answers ranges.
	 * @param statOnce Whether Spring's resource handling learns whether a file it serves from the file system exists,
	 * is readable, how long it is and when it changed from one stat per request, instead of a system call for each.
	 * Readability comes from the file's permissions when everyone may read it, and from the kernel otherwise.
	 */
	public record EgressProperties(@DefaultValue("auto") KernelTlsMode ktls,
			@DefaultValue("false") boolean precompressedZstd, @DefaultValue("true") boolean ifRange,
			@DefaultValue("true") boolean statOnce) {

	}

	/**
	 * Admission control: what happens to requests for the application beyond the server's capacity. Each default
	 * equals the engine's in {@code OverloadConfig}.
	 *
	 * @param maxQueueDelay Longest a request may have waited for its reactor's other work before it is read. Later
	 * ones are answered 503 with Retry-After at once, without entering the application, and their connections serve
	 * on, so that the rest keep a short wait instead of every request queueing behind the others. Unset: no admission
	 * control, every request waits for its turn.
	 * @param retryAfter Retry-After of those 503 answers, in whole seconds.
	 */
	public record OverloadProperties(Duration maxQueueDelay, @DefaultValue("1s") Duration retryAfter) {

	}

	/**
	 * WebSocket settings.
	 *
	 * @param maxMessageSize Largest WebSocket message accepted, whole or in fragments. A larger one closes the
	 * session with status 1009 (message too big).
	 */
	public record WebSocketProperties(@DefaultValue("64KB") DataSize maxMessageSize) {

	}

	/**
	 * HTTP/2 settings, served when {@code server.http2.enabled} is true: h2c (prior knowledge and Upgrade) on a plain
	 * port. Each default equals the engine's in {@code Http2Config}.
	 *
	 * @param maxConcurrentStreams Most streams a client may have open at once on a connection. More are refused.
	 * @param initialWindowSize How much of a request body a stream takes before the application has read it.
	 * @param connectionWindowSize How much of the request bodies of all streams of a connection is taken before the
	 * application has read them.
	 * @param maxFrameSize Largest frame payload accepted.
	 * @param maxHeaderListSize Largest header list accepted. Larger ones are answered 431; far larger ones end the
	 * connection.
	 * @param maxResetsPerWindow Most streams a client may reset, or make the server reset, within reset-window
	 * (Rapid Reset and MadeYouReset). More end the connection with GOAWAY ENHANCE_YOUR_CALM.
	 * @param resetWindow Window of max-resets-per-window, in whole seconds.
	 * @param maxConsecutiveEmptyDataFrames Most DATA frames without payload nor end of stream a client may send in a
	 * row. More end the connection.
	 * @param maxQueuedControlFrames Most answers to SETTINGS, PING and resets that may wait for a client that does not
	 * read them. More end the connection.
	 * @param maxSmallContinuationFrames Most small CONTINUATION frames a header block may come in (CONTINUATION
	 * Flood). More end the connection.
	 * @param maxWindowUpdatesPerDataFrame WINDOW_UPDATE frames a client may send per DATA frame sent to it. More end
	 * the connection.
	 */
	public record Http2Properties(@DefaultValue("100") int maxConcurrentStreams,
			@DefaultValue("65535B") DataSize initialWindowSize, @DefaultValue("1MB") DataSize connectionWindowSize,
			@DefaultValue("16KB") DataSize maxFrameSize, @DefaultValue("8KB") DataSize maxHeaderListSize,
			@DefaultValue("200") int maxResetsPerWindow, @DefaultValue("30s") Duration resetWindow,
			@DefaultValue("2") int maxConsecutiveEmptyDataFrames, @DefaultValue("10000") int maxQueuedControlFrames,
			@DefaultValue("16") int maxSmallContinuationFrames, @DefaultValue("10") int maxWindowUpdatesPerDataFrame) {

	}

	/**
	 * HTTP/3 settings. HTTP/3 runs over QUIC, which is always TLS: it needs server.ssl (or an SSL bundle), and is
	 * served on the port number of server.port over UDP, beside HTTP/1.1 and HTTP/2 on TCP, announced to clients by
	 * an Alt-Svc header on their responses. Each default equals the engine's in {@code Http3Config}.
	 *
	 * @param enabled Whether to serve HTTP/3.
	 * @param idleTimeout How long a QUIC connection may stay without a packet before it is closed.
	 * @param maxConcurrentStreams Most request streams a client may have open at once on a connection; QUIC's flow
	 * control holds back the rest.
	 * @param maxUnidirectionalStreams Most unidirectional streams a client may open (at least 3: control and QPACK).
	 * @param connectionWindowSize How much of the request bodies of all streams of a connection is taken before the
	 * application has read them.
	 * @param streamWindowSize How much of a request body a stream takes before the application has read it.
	 * @param maxUdpPayloadSize Largest UDP payload sent and received (1200 to 65527 bytes).
	 * @param receiveBufferSize UDP receive buffer each socket asks of the kernel (SO_RCVBUF); packets that arrive while
	 * it is full are dropped. The kernel caps it at net.core.rmem_max, and khamsin logs a warning when it does.
	 * @param congestionControl Congestion controller of each connection: cubic, reno or bbr.
	 * @param maxResetsPerWindow Most request streams a client may end before their responses (reset, stopped, or
	 * made to be reset) within reset-window, as HTTP/2's Rapid Reset limit; more close the connection with
	 * H3_EXCESSIVE_LOAD.
	 * @param resetWindow Window of max-resets-per-window.
	 * @param earlyData Whether a resuming client may send requests in 0-RTT early data. Off by default: an attacker
	 * who records such a request can send it again, and the application sees it twice.
	 * @param retry Whether a new client must first echo a retry token bound to its address (RFC 9000, 8.1), so that a
	 * spoofed address cannot make the server send a handshake's worth of packets to a victim. Costs new clients one
	 * round trip.
	 * @param altSvcMaxAge How long clients may remember that HTTP/3 is served (the ma of Alt-Svc).
	 */
	public record Http3Properties(@DefaultValue("false") boolean enabled, @DefaultValue("30s") Duration idleTimeout,
			@DefaultValue("100") int maxConcurrentStreams, @DefaultValue("3") int maxUnidirectionalStreams,
			@DefaultValue("10MB") DataSize connectionWindowSize, @DefaultValue("1MB") DataSize streamWindowSize,
			@DefaultValue("1350B") DataSize maxUdpPayloadSize, @DefaultValue("4MB") DataSize receiveBufferSize,
			@DefaultValue("cubic") Http3Config.CongestionControl congestionControl,
			@DefaultValue("200") int maxResetsPerWindow, @DefaultValue("30s") Duration resetWindow,
			@DefaultValue("false") boolean earlyData, @DefaultValue("true") boolean retry,
			@DefaultValue("24h") Duration altSvcMaxAge) {

	}

	/**
	 * One fixed response.
	 *
	 * @param path Request path it answers, exactly (the query string is ignored).
	 * @param status Status code.
	 * @param contentType Content-Type of the body, or empty for none.
	 * @param body Body, as UTF-8 text.
	 * @param headers More response headers.
	 */
	public record FixedResponseProperties(String path, @DefaultValue("200") int status,
			@DefaultValue("text/plain") String contentType, @DefaultValue("") String body, Map<String, String> headers) {

		/**
		 * The engine's fixed response.
		 * @return the fixed response
		 * @throws IllegalArgumentException naming the property that is wrong
		 */
		public FixedResponse toFixedResponse() {
			return new FixedResponse(this.path, this.status,
					(this.contentType == null || this.contentType.isEmpty()) ? null : this.contentType,
					(this.body != null) ? this.body.getBytes(StandardCharsets.UTF_8) : null,
					(this.headers != null) ? this.headers : Map.of());
		}

	}

}
