package io.khamsin.container.test;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A plain socket speaking HTTP/1.1 by hand, for tests that need exact control of the bytes on the wire
 * (pipelining, chunking, slow clients, malformed requests). Reads responses with their framing.
 */
public final class RawHttpConnection implements Closeable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	public RawHttpConnection(int port) throws IOException {
		this.socket = new Socket("127.0.0.1", port);
		this.socket.setSoTimeout(10_000);
		this.socket.setTcpNoDelay(true);
		this.in = this.socket.getInputStream();
		this.out = this.socket.getOutputStream();
	}

	public RawHttpConnection send(String text) throws IOException {
		return send(text.getBytes(StandardCharsets.ISO_8859_1));
	}

	public RawHttpConnection send(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
		return this;
	}

	public Socket socket() {
		return this.socket;
	}

	/**
	 * Read one response; {@code headRequest} says it answers a HEAD (no body whatever the headers say).
	 */
	public Response read(boolean headRequest) throws IOException {
		String statusLine = readLine();
		if (statusLine == null) {
			throw new IOException("Connection closed before a response");
		}
		String[] parts = statusLine.split(" ", 3);
		int status = Integer.parseInt(parts[1]);
		Map<String, String> headers = new LinkedHashMap<>();
		String line;
		while ((line = readLine()) != null && !line.isEmpty()) {
			int colon = line.indexOf(':');
			String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
			String value = line.substring(colon + 1).trim();
			headers.merge(name, value, (a, b) -> a + ", " + b);
		}
		byte[] body;
		if (headRequest || status / 100 == 1 || status == 204 || status == 304) {
			body = new byte[0];
		}
		else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
			body = readChunked();
		}
		else if (headers.containsKey("content-length")) {
			body = this.in.readNBytes(Integer.parseInt(headers.get("content-length")));
		}
		else {
			body = this.in.readAllBytes();
		}
		return new Response(statusLine, status, headers, body);
	}

	public Response read() throws IOException {
		return read(false);
	}

	/**
	 * Whether the server closed the connection: a read returns end of stream (or reset) within the timeout.
	 */
	public boolean isClosedByServer(int timeoutMillis) throws IOException {
		int previous = this.socket.getSoTimeout();
		this.socket.setSoTimeout(timeoutMillis);
		try {
			return this.in.read() == -1;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException ex) {
			return true;
		}
		finally {
			if (!this.socket.isClosed()) {
				this.socket.setSoTimeout(previous);
			}
		}
	}

	private byte[] readChunked() throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (true) {
			String sizeLine = readLine();
			if (sizeLine == null) {
				throw new IOException("Connection closed inside a chunked body");
			}
			int semicolon = sizeLine.indexOf(';');
			int size = Integer.parseInt((semicolon >= 0) ? sizeLine.substring(0, semicolon) : sizeLine.trim(), 16);
			if (size == 0) {
				String trailer;
				while ((trailer = readLine()) != null && !trailer.isEmpty()) {
					// trailers are ignored
				}
				return body.toByteArray();
			}
			body.write(this.in.readNBytes(size));
			readLine();
		}
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = this.in.read()) != -1) {
			if (b == '\n') {
				byte[] bytes = line.toByteArray();
				int length = (bytes.length > 0 && bytes[bytes.length - 1] == '\r') ? bytes.length - 1 : bytes.length;
				return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
			}
			line.write(b);
		}
		return (line.size() > 0) ? line.toString(StandardCharsets.ISO_8859_1) : null;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * A response as read from the wire.
	 */
	public record Response(String statusLine, int status, Map<String, String> headers, byte[] body) {

		public String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

		public String bodyText() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

	}

}
