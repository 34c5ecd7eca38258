package io.khamsin.container.engine;

import java.time.Duration;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * What every HTTP protocol of a server applies alike: the limits and deadlines of a connection's requests and the
 * {@code Server} and {@code Alt-Svc} headers. The slice of the server's configuration that the protocols read,
 * through the {@link ServerContext}, so that none of them depends on the configuration as a whole.
 *
 * @param maxInitialLineLength the longest request line accepted (longer: 414)
 * @param maxHeaderSize the largest request head accepted, in bytes (larger: 431)
 * @param idleTimeout how long a keep-alive connection may stay idle between requests
 * @param headerReadTimeout how long a client may take to send a request head (slower: 408)
 * @param bodyReadTimeout how long a request body may stall while the handler waits for it (slower: 408)
 * @param minRequestBodyRate the slowest a request body may arrive, in bytes per second, once its first
 * {@link #MIN_RATE_GRACE} is over (slower: 408), or {@code 0} for no minimum
 * @param sendTimeout how long a connection's socket may take none of its response before it is closed
 * @param requestTimeout how long a handler may take to begin its response (slower: cancelled, 503), or {@code null}
 * for no limit
 * @param maxRequestBodySize the largest request body accepted in bytes (larger: 413), or {@code -1} for no limit
 * @param serverHeader the value of the {@code Server} response header, or {@code null} for none
 * @param altSvc the value of the {@code Alt-Svc} response header that announces HTTP/3 (RFC 7838), or {@code null}
 * when the server does not serve it
 */
public record HttpSettings(int maxInitialLineLength, int maxHeaderSize, Duration idleTimeout,
		Duration headerReadTimeout, Duration bodyReadTimeout, long minRequestBodyRate, Duration sendTimeout,
		Duration requestTimeout, long maxRequestBodySize, String serverHeader, String altSvc) {

	/**
	 * How long a request body may arrive at any rate before {@code minRequestBodyRate} applies: the client's TCP
	 * window opens over its first round trips, and a body that follows an {@code Expect: 100-continue} starts late.
	 */
	public static final Duration MIN_RATE_GRACE = Duration.ofSeconds(5);

	/**
	 * The same settings announcing HTTP/3.
	 * @param altSvc the {@code Alt-Svc} value, or {@code null} for none
	 * @return the settings
	 */
	public HttpSettings withAltSvc(String altSvc) {
		return new HttpSettings(this.maxInitialLineLength, this.maxHeaderSize, this.idleTimeout, this.headerReadTimeout,
				this.bodyReadTimeout, this.minRequestBodyRate, this.sendTimeout, this.requestTimeout, this.maxRequestBodySize,
				this.serverHeader, altSvc);
	}

	/**
	 * Add what every response of the server carries and its handler did not set: {@code Date}, {@code Server} and
	 * {@code Alt-Svc}, each when it has one.
	 * @param headers the response's headers
	 */
	public void stamp(HttpHeaders headers) {
		if (!headers.contains(HttpHeaderNames.DATE)) {
			headers.set(HttpHeaderNames.DATE, DateHeader.now());
		}
		if (this.serverHeader != null && !headers.contains(HttpHeaderNames.SERVER)) {
			headers.set(HttpHeaderNames.SERVER, this.serverHeader);
		}
		if (this.altSvc != null && !headers.contains(HttpHeaderNames.ALT_SVC)) {
			headers.set(HttpHeaderNames.ALT_SVC, this.altSvc);
		}
	}

}
