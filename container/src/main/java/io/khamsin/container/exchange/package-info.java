/**
 * The exchange stage, one for every protocol: the {@link io.khamsin.container.exchange.ExchangeDispatcher} takes each
 * decoded request head through its guards, fixed responses, {@code OPTIONS *} and the page cache, and otherwise makes
 * an {@link io.khamsin.container.exchange.HttpExchange} that runs the Spring handler over the bridge's request and
 * response; it keeps the request's clock and writes its access log line. A protocol joins by implementing
 * {@link io.khamsin.container.exchange.ExchangeChannel} (how its requests are answered) and
 * {@link io.khamsin.container.bridge.ConnectionInfo} (what its connection is, most simply as a
 * {@link io.khamsin.container.exchange.ConnectionHandler}).
 */
package io.khamsin.container.exchange;
