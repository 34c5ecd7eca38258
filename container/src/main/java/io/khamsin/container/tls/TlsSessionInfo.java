package io.khamsin.container.tls;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import org.springframework.http.server.reactive.SslInfo;

/**
 * The {@link SslInfo} of Spring's {@code ServerHttpRequest#getSslInfo()}: the session id in hex and the client's
 * X.509 certificate chain ({@code null} when it sent none), read from the connection's {@link SSLSession} when a
 * request asks for it, as Reactor Netty's adapter gives them.
 */
public final class TlsSessionInfo implements SslInfo {

	private final String sessionId;

	private final X509Certificate[] peerCertificates;

	private TlsSessionInfo(String sessionId, X509Certificate[] peerCertificates) {
		this.sessionId = sessionId;
		this.peerCertificates = peerCertificates;
	}

	@Override
	public String getSessionId() {
		return this.sessionId;
	}

	@Override
	public X509Certificate[] getPeerCertificates() {
		return (this.peerCertificates != null) ? this.peerCertificates.clone() : null;
	}

	/**
	 * The TLS information of a connection.
	 * @param channel the connection
	 * @return the information, or {@code null} when the connection does not speak TLS
	 */
	public static SslInfo of(Channel channel) {
		SslHandler handler = channel.pipeline().get(SslHandler.class);
		if (handler != null) {
			return of(handler.engine().getSession());
		}
		KernelTlsHandler kernel = channel.pipeline().get(KernelTlsHandler.class);
		return (kernel != null) ? kernel.sslInfo() : null;
	}

	/**
	 * The TLS information of a session some other TLS stack ran.
	 * @param sessionId its session id, or {@code null} or empty for none
	 * @param peerCertificates the client's chain, or {@code null} when it sent none
	 * @return the information
	 */
	static SslInfo of(byte[] sessionId, X509Certificate[] peerCertificates) {
		String id = (sessionId != null && sessionId.length > 0) ? HexFormat.of().formatHex(sessionId) : null;
		return new TlsSessionInfo(id, (peerCertificates != null) ? peerCertificates.clone() : null);
	}

	/**
	 * The TLS information of a session.
	 * @param session the session
	 * @return the information
	 */
	public static SslInfo of(SSLSession session) {
		byte[] id = session.getId();
		String sessionId = (id != null && id.length > 0) ? HexFormat.of().formatHex(id) : null;
		return new TlsSessionInfo(sessionId, peerCertificates(session));
	}

	private static X509Certificate[] peerCertificates(SSLSession session) {
		Certificate[] certificates;
		try {
			certificates = session.getPeerCertificates();
		}
		catch (SSLPeerUnverifiedException ex) {
			return null;
		}
		List<X509Certificate> x509 = new ArrayList<>(certificates.length);
		for (Certificate certificate : certificates) {
			if (certificate instanceof X509Certificate x) {
				x509.add(x);
			}
		}
		return x509.isEmpty() ? null : x509.toArray(new X509Certificate[0]);
	}

}
