/**
 * The exchange stage, one for every protocol: the {@link io.khamsin.container.exchange.ExchangeDispatcher} takes each
 * decoded request head through its guards, fixed responses, {@code OPTIONS *} and the page cache, and otherwise makes
 * an {@link io.khamsin.container.exchange.HttpExchange} that runs the Spring handler over the bridge's request and
 * response; it keeps the request's clock and writes its access log line. A protocol joins by implementing
 * {@link io.khamsin.container.exchange.ExchangeChannel} (how its requests are answered) and
 * {@link io.khamsin.container.bridge.ConnectionInfo} (what its connection is, most simply as a
 * {@link io.khamsin.container.exchange.ConnectionHandler}). Protocols whose requests are streams of one connection
 * (HTTP/2, HTTP/3) share {@link io.khamsin.container.exchange.StreamExchangeHandler} with its
 * {@link io.khamsin.container.exchange.BodyReadTimer} (a body's stall and, with
 * {@link io.khamsin.container.exchange.BodyRate}, its minimum rate, which HTTP/1.1's connection timer uses too), and
 * build their field sections with
 * {@link io.khamsin.container.exchange.FieldSections}.
 */
package io.khamsin.container.exchange;
