package io.khamsin.container.transport;

import io.netty.channel.Channel;

import io.khamsin.container.egress.TlsSealing;
import org.springframework.http.server.reactive.SslInfo;

/**
 * What the transport established under a connection's protocol, as its exchanges see it: plain TCP ({@link #PLAIN})
 * today; a TLS listener gives its connections one that reads their TLS session. One instance serves every
 * connection of a listener, so that it costs a connection nothing.
 */
public interface ConnectionSecurity {

	/** A plain TCP connection: {@code http}, no TLS session, nothing encrypted. */
	ConnectionSecurity PLAIN = new ConnectionSecurity() {

		@Override
		public String scheme() {
			return "http";
		}

		@Override
		public SslInfo sslInfo(Channel channel) {
			return null;
		}

		@Override
		public TlsSealing sealing(Channel channel) {
			return TlsSealing.PLAIN;
		}

		@Override
		public String toString() {
			return "plain";
		}

	};

	/**
	 * The scheme of the connection's request URIs.
	 * @return {@code http} or {@code https}
	 */
	String scheme();

	/**
	 * The TLS session of a connection, as Spring shows it to the application.
	 * @param channel the connection
	 * @return its session, or {@code null} on a plain connection
	 */
	SslInfo sslInfo(Channel channel);

	/**
	 * Who seals the records the connection sends: nobody (plain), the JVM, so that a file body must pass through
	 * it, or the kernel (kernel TLS), so that a file body can go from the file to the socket by the kernel.
	 * @param channel the connection
	 * @return who seals them, as they stand now
	 */
	TlsSealing sealing(Channel channel);

}
