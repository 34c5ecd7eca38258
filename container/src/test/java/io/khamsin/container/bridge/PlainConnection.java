package io.khamsin.container.bridge;

import java.net.InetSocketAddress;

import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.egress.TlsSealing;
import io.khamsin.container.metrics.Protocol;

/**
 * A cleartext HTTP/1.1 connection with the scheme and addresses a test gives it.
 *
 * @param scheme the scheme of its request URIs
 * @param remoteAddress the client's address, or {@code null}
 * @param localAddress the address the client connected to, or {@code null}
 */
public record PlainConnection(String scheme, InetSocketAddress remoteAddress, InetSocketAddress localAddress)
		implements ConnectionInfo {

	@Override
	public Protocol protocol() {
		return Protocol.H1;
	}

	@Override
	public SslInfo sslInfo() {
		return null;
	}

	@Override
	public boolean framed() {
		return false;
	}

	@Override
	public TlsSealing sealing() {
		return TlsSealing.PLAIN;
	}

}
