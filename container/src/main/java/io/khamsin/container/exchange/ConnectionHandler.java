package io.khamsin.container.exchange;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.bridge.ConnectionInfo;
import io.khamsin.container.egress.TlsSealing;
import io.khamsin.container.transport.ConnectionSecurity;

/**
 * A protocol's handler of a connection that is also its {@link ConnectionInfo}: what the transport established
 * ({@link ConnectionSecurity}) and the channel's addresses, read by every exchange of the connection without an
 * object of their own. The TLS session does not change once a protocol runs (renegotiation is refused and TLS 1.3
 * has none), so its {@link SslInfo} is made once, when a request first asks for it.
 */
public abstract class ConnectionHandler extends ChannelInboundHandlerAdapter implements ConnectionInfo {

	private final ConnectionSecurity security;

	private SslInfo sslInfo;

	/**
	 * A handler of a connection on the given security.
	 * @param security what the transport established under the protocol
	 */
	protected ConnectionHandler(ConnectionSecurity security) {
		this.security = security;
	}

	/**
	 * The connection itself, once the handler is in its pipeline.
	 * @return the connection's channel
	 */
	protected abstract Channel connectionChannel();

	@Override
	public final String scheme() {
		return this.security.scheme();
	}

	@Override
	public final SslInfo sslInfo() {
		SslInfo info = this.sslInfo;
		if (info == null) {
			info = this.security.sslInfo(connectionChannel());
			this.sslInfo = info;
		}
		return info;
	}

	@Override
	public final InetSocketAddress remoteAddress() {
		return inet(remoteSocketAddress());
	}

	@Override
	public final InetSocketAddress localAddress() {
		return inet(localSocketAddress());
	}

	/**
	 * The client's address as the socket sees it: the channel's own, unless the protocol's connection is not the
	 * socket (a QUIC connection, whose channel address is its connection ID).
	 * @return the address
	 */
	protected SocketAddress remoteSocketAddress() {
		return connectionChannel().remoteAddress();
	}

	/**
	 * The address the client connected to, as the socket sees it.
	 * @return the address
	 * @see #remoteSocketAddress()
	 */
	protected SocketAddress localSocketAddress() {
		return connectionChannel().localAddress();
	}

	private static InetSocketAddress inet(SocketAddress address) {
		return (address instanceof InetSocketAddress inet) ? inet : null;
	}

	/** A connection's protocol frames nothing itself unless it says so (HTTP/2, HTTP/3). */
	@Override
	public boolean framed() {
		return false;
	}

	@Override
	public final TlsSealing sealing() {
		return this.security.sealing(connectionChannel());
	}

}
