/**
 * {@code server.forward-headers-strategy=native}: the scheme, host, port, remote address and path prefix a client
 * used, read from {@code Forwarded} (RFC 7239) and {@code X-Forwarded-For/-Proto/-Host/-Port/-Prefix} as Reactor
 * Netty reads them, but only when the connection comes from a trusted proxy
 * ({@link io.khamsin.container.forwarded.ForwardedConfig#trustedProxies()}), and only as far back along the chain
 * of proxies as each hop is trusted. {@link io.khamsin.container.forwarded.ForwardedHeaders} turns a request's
 * headers into a {@link io.khamsin.container.forwarded.RequestOrigin}, which the request adapter builds its URI,
 * context path and remote address from.
 * <p>
 * By default the trusted proxies are the loopback, private, link-local and shared (carrier-grade NAT) ranges of
 * IPv4 and IPv6, the list Tomcat's {@code RemoteIpValve} (and so Boot's {@code server.tomcat.remoteip}) trusts:
 * an application behind a load balancer, an ingress controller or a sidecar in its own network works with no
 * setting, while one reached straight from the internet ignores forwarded headers that any client could send.
 * Reactor Netty and Jetty trust every peer; to do the same, set {@code 0.0.0.0/0} and {@code ::/0}. A network
 * where untrusted hosts share a private range needs its proxies named exactly.
 */
package io.khamsin.container.forwarded;
