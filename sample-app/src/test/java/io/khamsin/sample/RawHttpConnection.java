package io.khamsin.sample;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 connection on a plain socket, for what the usual clients hide: pipelining, chunked request bodies
 * written by hand, {@code Expect: 100-continue}, HEAD framing, request-target forms and whether the server closed
 * the connection. Responses are parsed as RFC 9112 section 6 frames them.
 */
final class RawHttpConnection implements AutoCloseable {

	private static final int READ_TIMEOUT_MILLIS = 10_000;

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private RawHttpConnection(Socket socket) throws IOException {
		this.socket = socket;
		this.socket.setSoTimeout(READ_TIMEOUT_MILLIS);
		this.in = new BufferedInputStream(socket.getInputStream());
		this.out = socket.getOutputStream();
	}

	static RawHttpConnection open(SampleServer server) throws IOException {
		return new RawHttpConnection(new Socket(InetAddress.getLoopbackAddress(), server.port()));
	}

	int localPort() {
		return this.socket.getLocalPort();
	}

	RawHttpConnection write(String text) throws IOException {
		return write(text.getBytes(StandardCharsets.ISO_8859_1));
	}

	RawHttpConnection write(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
		return this;
	}

	/**
	 * Reads the next response, with a body unless it is a 1xx, 204 or 304 response.
	 * @return the response
	 * @throws IOException if the connection fails or ends before the head does
	 */
	RawHttpResponse read() throws IOException {
		return read(false);
	}

	/**
	 * Reads the answer to a HEAD request: its head only, whatever its framing headers say.
	 * @return the response
	 * @throws IOException if the connection fails or ends before the head does
	 */
	RawHttpResponse readHead() throws IOException {
		return read(true);
	}

	/**
	 * Whether the server has closed the connection: the next read ends the stream instead of timing out.
	 * @return {@code true} once the server closed it
	 * @throws IOException if the connection fails
	 */
	boolean isClosedByServer() throws IOException {
		try {
			return this.in.read() == -1;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException ex) {
			// A reset is a close too.
			return true;
		}
	}

	private RawHttpResponse read(boolean headRequest) throws IOException {
		String statusLine = line();
		if (statusLine == null) {
			throw new EOFException("The server closed the connection before a response");
		}
		String[] status = statusLine.split(" ", 3);
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String line = line(); line != null && !line.isEmpty(); line = line()) {
			int colon = line.indexOf(':');
			String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
			headers.computeIfAbsent(name, (key) -> new ArrayList<>()).add(line.substring(colon + 1).trim());
		}
		RawHttpResponse head = new RawHttpResponse(status[0], Integer.parseInt(status[1]),
				(status.length > 2) ? status[2] : "", headers, new byte[0], true);
		int code = head.status();
		if (headRequest || code / 100 == 1 || code == 204 || code == 304) {
			return head;
		}
		if ("chunked".equalsIgnoreCase(head.header("transfer-encoding"))) {
			return chunkedBody(head);
		}
		if (head.header("content-length") != null) {
			byte[] body = this.in.readNBytes(Integer.parseInt(head.header("content-length")));
			return head.withBody(body, true);
		}
		return head.withBody(this.in.readAllBytes(), true);
	}

	private RawHttpResponse chunkedBody(RawHttpResponse head) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (true) {
			String sizeLine = line();
			if (sizeLine == null) {
				return head.withBody(body.toByteArray(), false);
			}
			int size = Integer.parseInt(sizeLine.split(";", 2)[0].trim(), 16);
			if (size == 0) {
				for (String trailer = line(); trailer != null && !trailer.isEmpty(); trailer = line()) {
					// trailers are not needed by any test
				}
				return head.withBody(body.toByteArray(), true);
			}
			byte[] chunk = this.in.readNBytes(size);
			body.write(chunk);
			if (chunk.length < size || line() == null) {
				return head.withBody(body.toByteArray(), false);
			}
		}
	}

	/**
	 * Reads a line ended by CRLF, or {@code null} at the end of the stream.
	 */
	private String line() throws IOException {
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
		return null;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
