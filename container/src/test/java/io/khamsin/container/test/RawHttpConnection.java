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
 * (pipelining, chunking, slow clients, malformed requests, {@code Expect: 100-continue}, HEAD framing) and to see
 * what the usual clients hide: whether a body ended as its framing says and whether the server closed the
 * connection. Reads responses as RFC 9112 section 6 frames them.
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

	/** @return the client's port, as the server sees it in the remote address */
	public int localPort() {
		return this.socket.getLocalPort();
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
		if (headRequest || status / 100 == 1 || status == 204 || status == 304) {
			return new Response(statusLine, status, headers, new byte[0], true);
		}
		if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			boolean complete = readChunked(body);
			return new Response(statusLine, status, headers, body.toByteArray(), complete);
		}
		if (headers.containsKey("content-length")) {
			int length = Integer.parseInt(headers.get("content-length"));
			byte[] body = this.in.readNBytes(length);
			return new Response(statusLine, status, headers, body, body.length == length);
		}
		return new Response(statusLine, status, headers, this.in.readAllBytes(), true);
	}

	public Response read() throws IOException {
		return read(false);
	}

	/** Read the answer to a HEAD request: its head only, whatever its framing headers say. */
	public Response readHead() throws IOException {
		return read(true);
	}

	/**
	 * Whether the server closed the connection: a read returns end of stream (or reset) within the read timeout
	 * of 10 seconds.
	 */
	public boolean isClosedByServer() throws IOException {
		return isClosedByServer(this.socket.getSoTimeout());
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

	/** @return whether the body ended with its last chunk, rather than by the connection closing inside it */
	private boolean readChunked(ByteArrayOutputStream body) throws IOException {
		while (true) {
			String sizeLine = readLine();
			if (sizeLine == null) {
				return false;
			}
			int semicolon = sizeLine.indexOf(';');
			int size = Integer.parseInt((semicolon >= 0) ? sizeLine.substring(0, semicolon) : sizeLine.trim(), 16);
			if (size == 0) {
				String trailer;
				while ((trailer = readLine()) != null && !trailer.isEmpty()) {
					// trailers are ignored
				}
				return true;
			}
			byte[] chunk = this.in.readNBytes(size);
			body.write(chunk);
			if (chunk.length < size || readLine() == null) {
				return false;
			}
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
	 *
	 * @param statusLine its status line
	 * @param status its status code
	 * @param headers its header fields by lower-case name, repeated fields joined with ", "
	 * @param body its body, decoded from chunks when it was chunked
	 * @param complete whether the body ended as its framing says (the last chunk, or all of Content-Length) rather
	 * than by the connection closing early
	 */
	public record Response(String statusLine, int status, Map<String, String> headers, byte[] body, boolean complete) {

		public String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

		public String bodyText() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

	}

}
