package io.khamsin.container.bridge;

import java.net.InetSocketAddress;

import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.metrics.Protocol;

/**
 * What a connection knows about itself that its exchanges need, in one object: the protocol and scheme, the TLS
 * session, both addresses, and whether file bodies may leave by the kernel. Implemented by the protocol handler of
 * a connection (HTTP/1.1), or shared by the streams of one (HTTP/2, HTTP/3), so that it costs a connection no
 * object of its own; every method is cheap.
 */
public interface ConnectionInfo {

	/** @return the protocol the connection speaks, as tagged in the figures */
	Protocol protocol();

	/** @return the scheme of its request URIs, {@code http} or {@code https} */
	String scheme();

	/** @return its TLS session, or {@code null} on a plain connection */
	SslInfo sslInfo();

	/** @return the client's address, or {@code null} when the channel has none (an embedded channel) */
	InetSocketAddress remoteAddress();

	/** @return the address the client connected to, or {@code null} when the channel has none */
	InetSocketAddress localAddress();

	/**
	 * The egress a file body may take: whether it may leave as a {@code FileRegion} (sendfile, splice), the bytes
	 * going from the page cache to the socket untouched, or must be read into pooled buffers.
	 * @return {@code true} if it may leave by the kernel
	 */
	boolean zeroCopyFiles();

}
