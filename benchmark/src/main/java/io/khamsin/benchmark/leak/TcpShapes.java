package io.khamsin.benchmark.leak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The shapes of the cleartext wire: HTTP/1.1 bodies left unread or cut, pipelined bodies then a close, WebSocket frames
 * then a reset, and HTTP/2 streams (prior knowledge) reset, abandoned or under a GOAWAY mid-body. Only the JDK's
 * sockets; HTTP/1.1 connections are closed alternately with a FIN and a reset.
 */
final class TcpShapes implements Shapes {

	private static final byte[] CHUNK = new byte[16 * 1024];

	private final int port;

	TcpShapes(int port) {
		this.port = port;
	}

	@Override
	public Map<String, Shape> shapes() {
		Map<String, Shape> shapes = new LinkedHashMap<>();
		shapes.put("h1 body to a route that never reads it", this::unreadBody);
		shapes.put("h1 upload cut mid-body", this::uploadCut);
		shapes.put("h1 multipart form cut mid-body", this::multipartCut);
		shapes.put("h1 pipelined bodies then a close", this::pipelinedThenClose);
		shapes.put("WebSocket frames then a reset", this::webSocketThenReset);
		shapes.put("h2 streams reset mid-body", this::h2ResetMidBody);
		shapes.put("h2 streams abandoned mid-body (connection reset)", this::h2AbandonedMidBody);
		shapes.put("h2 GOAWAY mid-body", this::h2GoAwayMidBody);
		return shapes;
	}

	/** A POST of 16 KiB and a GET on one connection, {@code requests} times. */
	@Override
	public void ordinaryTraffic(int requests) {
		for (int k = 0; k < requests; k++) {
			try (Socket socket = connect()) {
				write(socket, "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 16384\r\n\r\n");
				socket.getOutputStream().write(CHUNK);
				write(socket, "GET /plaintext HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
				socket.getInputStream().readAllBytes();
			}
			catch (IOException ex) {
				// the next one
			}
		}
	}

	@Override
	public boolean answers(int seconds) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		do {
			try (Socket socket = connect()) {
				write(socket, "GET /plaintext HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
				if (new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)
					.startsWith("HTTP/1.1 200")) {
					return true;
				}
			}
			catch (IOException ex) {
				// not yet
			}
			try {
				Thread.sleep(500);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		while (System.nanoTime() < deadline);
		return false;
	}

	/** A GET and a POST with bodies to routes that answer without reading them. */
	private void unreadBody(int i) throws IOException {
		try (Socket socket = connect()) {
			String method = (i % 2 == 0) ? "GET" : "POST";
			write(socket, method + " /plaintext HTTP/1.1\r\nHost: a\r\nContent-Length: 65536\r\n\r\n");
			socket.getOutputStream().write(new byte[65536]);
			readSome(socket);
			close(socket, i);
		}
	}

	/** 1 MiB announced, 96 KiB sent, then a FIN or a reset. */
	private void uploadCut(int i) throws IOException {
		try (Socket socket = connect()) {
			write(socket, "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 1048576\r\n\r\n");
			for (int k = 0; k < 6; k++) {
				socket.getOutputStream().write(CHUNK);
			}
			pause();
			close(socket, i);
		}
	}

	/** A form of two parts, cut in the middle of the first. */
	private void multipartCut(int i) throws IOException {
		try (Socket socket = connect()) {
			write(socket, "POST /upload/parts HTTP/1.1\r\nHost: a\r\nContent-Type: multipart/form-data; boundary=cut\r\n"
					+ "Content-Length: 1048576\r\n\r\n--cut\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nfield\r\n"
					+ "--cut\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n"
					+ "Content-Type: application/octet-stream\r\n\r\n");
			for (int k = 0; k < 4; k++) {
				socket.getOutputStream().write(CHUNK);
			}
			pause();
			close(socket, i);
		}
	}

	/** Three uploads and the start of a fourth in one write, and the connection closed without reading. */
	private void pipelinedThenClose(int i) throws IOException {
		try (Socket socket = connect()) {
			ByteArrayOutputStream requests = new ByteArrayOutputStream();
			for (int k = 0; k < 3; k++) {
				requests.write(ascii("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 16384\r\n\r\n"));
				requests.write(CHUNK);
			}
			requests.write(ascii("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 65536\r\n\r\n"));
			requests.write(CHUNK, 0, 8192);
			socket.getOutputStream().write(requests.toByteArray());
			close(socket, i);
		}
	}

	/** The echo endpoint's upgrade, frames (the last one cut), then a reset. */
	private void webSocketThenReset(int i) throws IOException {
		try (Socket socket = connect()) {
			write(socket, "GET /ws/echo HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
					+ "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
			if (!readSome(socket).startsWith("HTTP/1.1 101")) {
				throw new IOException("the upgrade was not answered 101");
			}
			OutputStream out = socket.getOutputStream();
			for (int k = 0; k < 3; k++) {
				out.write(maskedFrame(0x1, ascii("hello " + k), ascii("hello " + k).length));
			}
			out.write(maskedFrame(0x2, new byte[4096], 65536));
			pause();
			socket.setSoLinger(true, 0);
		}
	}

	/** Three streams each sent half a body and reset, then the connection closed. */
	private void h2ResetMidBody(int i) throws IOException {
		try (Socket socket = h2Connect()) {
			OutputStream out = socket.getOutputStream();
			halfSentUploads(out);
			pause();
			for (int stream = 1; stream <= 5; stream += 2) {
				out.write(frame(0x3, 0, stream, new byte[] { 0, 0, 0, 0x8 }));
			}
			out.flush();
			readSome(socket);
			close(socket, i);
		}
	}

	/** Opens streams 1, 3 and 5, each an upload that sent part of its body. */
	private void halfSentUploads(OutputStream out) throws IOException {
		for (int stream = 1; stream <= 5; stream += 2) {
			out.write(headers(stream, "/upload"));
			out.write(frame(0x0, 0, stream, CHUNK));
		}
	}

	/** Three streams each sent half a body (one a multipart form), and the connection reset under them. */
	private void h2AbandonedMidBody(int i) throws IOException {
		try (Socket socket = h2Connect()) {
			OutputStream out = socket.getOutputStream();
			out.write(headers(1, "/upload"));
			out.write(frame(0x0, 0, 1, CHUNK));
			out.write(headers(3, "/upload/parts"));
			out.write(frame(0x0, 0, 3, ascii("--cut\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f\"\r\n\r\n")));
			out.write(frame(0x0, 0, 3, CHUNK));
			out.write(headers(5, "/plaintext"));
			out.write(frame(0x0, 0, 5, CHUNK));
			pause();
			socket.setSoLinger(true, 0);
		}
	}

	/** Three streams each sent half a body, then a GOAWAY from the client, and the connection closed. */
	private void h2GoAwayMidBody(int i) throws IOException {
		try (Socket socket = h2Connect()) {
			OutputStream out = socket.getOutputStream();
			halfSentUploads(out);
			pause();
			out.write(frame(0x7, 0, 0, new byte[] { 0, 0, 0, 5, 0, 0, 0, 0 }));
			out.flush();
			readSome(socket);
			close(socket, i);
		}
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket();
		socket.connect(new InetSocketAddress("127.0.0.1", this.port), 5000);
		socket.setSoTimeout(5000);
		socket.setTcpNoDelay(true);
		return socket;
	}

	private Socket h2Connect() throws IOException {
		Socket socket = connect();
		OutputStream out = socket.getOutputStream();
		out.write(ascii("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
		out.write(frame(0x4, 0, 0, new byte[0]));
		return socket;
	}

	/** A request head of HPACK literals without indexing (RFC 7541, section 6.2.2), not ending its stream. */
	private static byte[] headers(int stream, String path) {
		ByteArrayOutputStream block = new ByteArrayOutputStream();
		String contentType = path.endsWith("parts") ? "multipart/form-data; boundary=cut" : "application/octet-stream";
		for (String[] field : List.of(new String[] { ":method", "POST" }, new String[] { ":scheme", "http" },
				new String[] { ":path", path }, new String[] { ":authority", "a" },
				new String[] { "content-type", contentType })) {
			block.write(0);
			block.write(field[0].length());
			block.writeBytes(ascii(field[0]));
			block.write(field[1].length());
			block.writeBytes(ascii(field[1]));
		}
		return frame(0x1, 0x4, stream, block.toByteArray());
	}

	/** An HTTP/2 frame (RFC 9113, section 4.1). */
	private static byte[] frame(int type, int flags, int stream, byte[] payload) {
		ByteArrayOutputStream frame = new ByteArrayOutputStream(9 + payload.length);
		frame.write(payload.length >>> 16);
		frame.write(payload.length >>> 8);
		frame.write(payload.length);
		frame.write(type);
		frame.write(flags);
		frame.write(stream >>> 24);
		frame.write(stream >>> 16);
		frame.write(stream >>> 8);
		frame.write(stream);
		frame.writeBytes(payload);
		return frame.toByteArray();
	}

	/** A client's WebSocket frame (RFC 6455, section 5.2) announcing {@code length} bytes, of which it holds the first. */
	private static byte[] maskedFrame(int opcode, byte[] payload, int length) {
		ByteArrayOutputStream frame = new ByteArrayOutputStream();
		frame.write(0x80 | opcode);
		if (length < 126) {
			frame.write(0x80 | length);
		}
		else {
			frame.write(0x80 | 127);
			for (int shift = 56; shift >= 0; shift -= 8) {
				frame.write((int) ((long) length >>> shift));
			}
		}
		byte[] mask = new byte[4];
		ThreadLocalRandom.current().nextBytes(mask);
		frame.writeBytes(mask);
		for (int k = 0; k < payload.length; k++) {
			frame.write(payload[k] ^ mask[k % 4]);
		}
		return frame.toByteArray();
	}

	/** @return what the server sends within a moment, if anything */
	private static String readSome(Socket socket) throws IOException {
		socket.setSoTimeout(1000);
		InputStream in = socket.getInputStream();
		byte[] buffer = new byte[8192];
		try {
			int read = in.read(buffer);
			return (read > 0) ? new String(buffer, 0, read, StandardCharsets.ISO_8859_1) : "";
		}
		catch (SocketTimeoutException ex) {
			return "";
		}
	}

	/** Let the server take what was sent before the connection ends. */
	private static void pause() {
		try {
			Thread.sleep(2);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Close with a FIN on odd iterations, a reset on even ones. */
	private static void close(Socket socket, int i) throws IOException {
		if (i % 2 == 0) {
			socket.setSoLinger(true, 0);
		}
		socket.close();
	}

	private static void write(Socket socket, String text) throws IOException {
		socket.getOutputStream().write(ascii(text));
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
