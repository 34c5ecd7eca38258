package io.khamsin.container.test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A JDK TLS socket that speaks HTTP/1.1 by hand over one kept-alive connection, for tests that need the session
 * (the certificate the server presented, the protocol) or several requests on one connection.
 */
public final class TlsClient implements AutoCloseable {

	private final SSLSocket socket;

	private final InputStream in;

	private TlsClient(SSLSocket socket) throws IOException {
		this.socket = socket;
		this.in = socket.getInputStream();
	}

	/**
	 * Connect to loopback and complete the handshake.
	 * @param context the client's context (its trust and its certificate)
	 * @param port the server's port
	 * @param serverName the SNI host name to send, or {@code null} for none
	 * @param protocol the one protocol to offer, such as {@code TLSv1.3}
	 * @return the connected client
	 * @throws IOException when the connection or the handshake fails
	 */
	public static TlsClient connect(SSLContext context, int port, String serverName, String protocol) throws IOException {
		SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
		socket.setSoTimeout(10_000);
		SSLParameters parameters = socket.getSSLParameters();
		parameters.setProtocols(new String[] { protocol });
		parameters.setServerNames((serverName != null) ? List.of(new SNIHostName(serverName)) : List.of());
		socket.setSSLParameters(parameters);
		try {
			socket.startHandshake();
		}
		catch (IOException ex) {
			socket.close();
			throw ex;
		}
		return new TlsClient(socket);
	}

	/** @return the socket */
	public SSLSocket socket() {
		return this.socket;
	}

	/** @return the server's certificate */
	public X509Certificate serverCertificate() throws IOException {
		return (X509Certificate) this.socket.getSession().getPeerCertificates()[0];
	}

	/**
	 * Send a GET and read the response's body (the server answers with a content-length).
	 * @param path the path
	 * @return the status line and the body
	 * @throws IOException when the connection fails or closes
	 */
	public String get(String path) throws IOException {
		this.socket.getOutputStream()
			.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		this.socket.getOutputStream().flush();
		String status = line();
		if (status == null) {
			throw new IOException("The server closed the connection before it answered");
		}
		int length = 0;
		for (String header = line(); header != null && !header.isEmpty(); header = line()) {
			if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
				length = Integer.parseInt(header.substring(15).trim());
			}
		}
		byte[] body = this.in.readNBytes(length);
		return status + "\n" + new String(body, StandardCharsets.UTF_8);
	}

	private String line() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = this.in.read()) != -1) {
			if (b == '\n') {
				String text = line.toString(StandardCharsets.ISO_8859_1);
				return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
			}
			line.write(b);
		}
		return (line.size() > 0) ? line.toString(StandardCharsets.ISO_8859_1) : null;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
