package io.khamsin.container.tls;

import io.netty.channel.Channel;
import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.egress.TlsSealing;
import io.khamsin.container.transport.ConnectionSecurity;

/**
 * What a TLS listener's connections give their exchanges: {@code https}, the connection's TLS session as Spring's
 * {@link SslInfo} (read when a request asks for it), and who seals the records: the JVM on Netty's
 * {@code SslHandler}, which cannot encrypt a {@code FileRegion}, so file bodies are read into buffers; or the kernel
 * once a {@link KernelTlsHandler} has handed the connection over, so file bodies go by {@code sendfile}. One instance
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
	public TlsSealing sealing(Channel channel) {
		KernelTlsHandler kernel = channel.pipeline().get(KernelTlsHandler.class);
		if (kernel == null && channel.parent() != null) {
			kernel = channel.parent().pipeline().get(KernelTlsHandler.class);
		}
		return (kernel != null) ? kernel.sealing() : TlsSealing.USERSPACE;
	}

	@Override
	public String toString() {
		return "tls";
	}

}
