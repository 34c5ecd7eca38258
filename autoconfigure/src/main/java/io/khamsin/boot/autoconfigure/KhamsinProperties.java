package io.khamsin.boot.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

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
 */
@ConfigurationProperties("khamsin")
public record KhamsinProperties(@DefaultValue("true") boolean enabled, Integer reactors,
		@DefaultValue("auto") Transport transport, @DefaultValue("reuseport") ListenerMode listener,
		@DefaultValue("4096B") DataSize maxInitialLineLength, @DefaultValue("60s") Duration idleTimeout,
		@DefaultValue("10s") Duration headerReadTimeout, @DefaultValue("30s") Duration bodyReadTimeout,
		@DefaultValue("10000") int maxConnections, @DefaultValue("-1B") DataSize maxRequestBodySize) {

}
