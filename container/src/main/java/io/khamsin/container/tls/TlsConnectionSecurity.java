package io.khamsin.container.tls;

import io.netty.channel.Channel;
import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.transport.ConnectionSecurity;

/**
 * What a TLS listener's connections give their exchanges: {@code https}, the connection's TLS session as Spring's
 * {@link SslInfo} (read when a request asks for it), and bytes encrypted by the JVM: Netty's
 * {@code SslHandler} cannot encrypt a {@code FileRegion}, so file bodies are read into buffers (kernel TLS will let
 * them go by the kernel). One instance
 * for every connection.
 */
final class TlsConnectionSecurity implements ConnectionSecurity {

	static final TlsConnectionSecurity INSTANCE = new TlsConnectionSecurity();

	private TlsConnectionSecurity() {
	}

	@Override
	public String scheme() {
		return "https";
	}

	@Override
	public SslInfo sslInfo(Channel channel) {
		SslInfo info = TlsSessionInfo.of(channel);
		// A multiplexed protocol's stream is a child channel; the TLS handler is its connection's.
		return (info == null && channel.parent() != null) ? TlsSessionInfo.of(channel.parent()) : info;
	}

	@Override
	public boolean userspaceTls(Channel channel) {
		return true;
	}

	@Override
	public String toString() {
		return "tls";
	}

}
