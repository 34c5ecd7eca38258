package io.khamsin.container.bridge;

import java.net.InetSocketAddress;

import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.egress.TlsSealing;
import io.khamsin.container.metrics.Protocol;

/**
 * What a connection knows about itself that its exchanges need, in one object: the protocol and scheme, the TLS
 * session, both addresses, and what decides how a file body may leave (framing, who seals TLS records).
 * Implemented by the protocol handler of a connection (HTTP/1.1), or shared by the streams of one (HTTP/2,
 * HTTP/3), so that it costs a connection no object of its own; every method is cheap.
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
	 * Whether the connection frames each stream's body itself (HTTP/2, HTTP/3), so that a file body is read into
	 * the protocol's frames.
	 * @return {@code true} for a stream of a multiplexed connection
	 */
	boolean framed();

	/**
	 * Who seals the records the connection sends: nobody, the JVM or the kernel (kernel TLS).
	 * @return who seals them, as they stand now
	 */
	TlsSealing sealing();

}
