package io.khamsin.container.http2.conformance;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Where a target listens and how to reach it: h2c with prior knowledge on a plain socket (RFC 9113 section 3.3), or
 * h2 over TLS with ALPN (section 3.2), trusting whatever certificate the test server shows.
 *
 * @param host the host to connect to
 * @param port the port
 * @param tls whether to speak TLS with ALPN {@code h2} first
 */
record Endpoint(String host, int port, boolean tls) {

	static Endpoint h2c(String host, int port) {
		return new Endpoint(host, port, false);
	}

	static Endpoint h2(String host, int port) {
		return new Endpoint(host, port, true);
	}

	String scheme() {
		return this.tls ? "https" : "http";
	}

	String authority() {
		return this.host + ":" + this.port;
	}

	/**
	 * Open a socket to the endpoint, with the TLS handshake done when it is TLS.
	 * @param receiveBuffer the socket's receive buffer in bytes, or 0 for the system's
	 * @return the connected socket
	 * @throws IOException when it cannot connect, or ALPN did not choose {@code h2}
	 */
	Socket connect(int receiveBuffer) throws IOException {
		Socket socket = new Socket();
		if (receiveBuffer > 0) {
			// Set before connecting so that the window the kernel advertises stays small.
			socket.setReceiveBufferSize(receiveBuffer);
		}
		socket.setTcpNoDelay(true);
		socket.connect(new InetSocketAddress(this.host, this.port), 10_000);
		if (!this.tls) {
			return socket;
		}
		SSLSocket tlsSocket = (SSLSocket) trustingContext().getSocketFactory()
			.createSocket(socket, this.host, this.port, true);
		SSLParameters parameters = tlsSocket.getSSLParameters();
		parameters.setApplicationProtocols(new String[] { "h2" });
		tlsSocket.setSSLParameters(parameters);
		tlsSocket.startHandshake();
		if (!"h2".equals(tlsSocket.getApplicationProtocol())) {
			tlsSocket.close();
			throw new IOException("ALPN chose '" + tlsSocket.getApplicationProtocol() + "', not h2, on " + this);
		}
		return tlsSocket;
	}

	private static SSLContext trustingContext() throws IOException {
		try {
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, new TrustManager[] { new TrustingManager() }, new SecureRandom());
			return context;
		}
		catch (GeneralSecurityException ex) {
			throw new IOException("No TLS context", ex);
		}
	}

	private static final class TrustingManager implements X509TrustManager {

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType) {
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType) {
		}

		@Override
		public X509Certificate[] getAcceptedIssuers() {
			return new X509Certificate[0];
		}

	}

}
