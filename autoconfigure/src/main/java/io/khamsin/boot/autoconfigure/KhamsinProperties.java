package io.khamsin.boot.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import io.khamsin.container.FixedResponse;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.ListenerMode;
import io.khamsin.container.Transport;

/**
 * Configuration of the khamsin server ({@code khamsin.*}). Each default equals the engine's default in
 * {@link KhamsinServerConfig}. The largest request head is Boot's {@code server.max-http-request-header-size}.
 *
 * @param enabled Whether khamsin serves the reactive web application. When false, Spring Boot's default reactive
 * server (Reactor Netty) is used instead.
 * @param reactors Number of reactors (event loops) that accept and serve connections. Defaults to the number of
 * available processors.
 * @param transport I/O transport. 'auto' takes io_uring, else epoll, else NIO, and logs why a better one was not
 * available.
 * @param listener Listener mode. 'reuseport' binds one SO_REUSEPORT socket per reactor (io_uring and epoll only,
 * NIO falls back to 'shared'); 'shared' binds one socket whose connections are handed to the reactors.
 * @param maxInitialLineLength Longest request line accepted. Longer ones are answered 414.
 * @param idleTimeout How long a keep-alive connection may stay idle between requests before it is closed.
 * @param headerReadTimeout How long a client may take to send a request head. Slower ones are answered 408 and
 * closed.
 * @param bodyReadTimeout How long a request body may stall while the application waits for it. Slower ones are
 * answered 408 and closed.
 * @param maxConnections Most connections open at once. New ones beyond it are closed at once.
 * @param maxRequestBodySize Largest request body accepted. Larger ones are answered 413; -1 for no limit.
 * @param websocket WebSocket settings.
 * @param fixedResponses Responses khamsin gives itself to GET and HEAD requests of their paths, without entering the
 * application: health and status routes and the like.
 */
@ConfigurationProperties("khamsin")
public record KhamsinProperties(@DefaultValue("true") boolean enabled, Integer reactors,
		@DefaultValue("auto") Transport transport, @DefaultValue("reuseport") ListenerMode listener,
		@DefaultValue("4096B") DataSize maxInitialLineLength, @DefaultValue("60s") Duration idleTimeout,
		@DefaultValue("10s") Duration headerReadTimeout, @DefaultValue("30s") Duration bodyReadTimeout,
		@DefaultValue("10000") int maxConnections, @DefaultValue("-1B") DataSize maxRequestBodySize,
		@DefaultValue WebSocketProperties websocket, List<FixedResponseProperties> fixedResponses) {

	public KhamsinProperties {
		fixedResponses = (fixedResponses != null) ? List.copyOf(fixedResponses) : List.of();
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
