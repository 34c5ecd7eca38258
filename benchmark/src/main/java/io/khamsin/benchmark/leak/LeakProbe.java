package io.khamsin.benchmark.leak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Sends the request shapes that leave a body or a stream half-handled to the sample app, each many times, then has
 * the server's JVM collect its garbage a few times (with {@code jcmd GC.run}) and sends ordinary requests so that
 * Netty's leak detector, at PARANOID, reports what was collected unreleased; counts the {@code LEAK:} reports the
 * server's log gained per shape. Only the JDK: run it as a source file,
 * {@code java LeakProbe.java <port> <server pid> <server log> <count>}; it prints one line per shape,
 * {@code shape<TAB>times sent<TAB>leak reports}. The HTTP/2 shapes are cleartext with prior knowledge.
 * {@code benchmark/leakprobe} runs it against khamsin and Reactor Netty and writes the table.
 */
public final class LeakProbe {

	private static final byte[] CHUNK = new byte[16 * 1024];

	private final int port;

	private final long pid;

	private final Path log;

	private LeakProbe(int port, long pid, Path log) {
		this.port = port;
		this.pid = pid;
		this.log = log;
	}

	public static void main(String[] args) throws Exception {
		LeakProbe probe = new LeakProbe(Integer.parseInt(args[0]), Long.parseLong(args[1]), Path.of(args[2]));
		int count = Integer.parseInt(args[3]);
		Map<String, Shape> shapes = new LinkedHashMap<>();
		shapes.put("h1 body to a route that never reads it", probe::unreadBody);
		shapes.put("h1 upload cut mid-body", probe::uploadCut);
		shapes.put("h1 multipart form cut mid-body", probe::multipartCut);
		shapes.put("h1 pipelined bodies then a close", probe::pipelinedThenClose);
		shapes.put("WebSocket frames then a reset", probe::webSocketThenReset);
		shapes.put("h2 streams reset mid-body", probe::h2ResetMidBody);
		shapes.put("h2 streams abandoned mid-body (connection reset)", probe::h2AbandonedMidBody);
		shapes.put("h2 GOAWAY mid-body", probe::h2GoAwayMidBody);
		probe.settle();
		long before = probe.leakReports();
		for (Map.Entry<String, Shape> shape : shapes.entrySet()) {
			int failures = 0;
			for (int i = 0; i < count; i++) {
				try {
					shape.getValue().send(i);
				}
				catch (IOException ex) {
					failures++;
				}
			}
			probe.settle();
			long after = probe.leakReports();
			System.out.println(shape.getKey() + "\t" + count + "\t" + (after - before) + "\t" + failures);
			before = after;
		}
	}

	@FunctionalInterface
	private interface Shape {

		void send(int iteration) throws IOException;

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
			for (int stream = 1; stream <= 5; stream += 2) {
				out.write(headers(stream, "/upload"));
				out.write(frame(0x0, 0, stream, CHUNK));
			}
			pause();
			for (int stream = 1; stream <= 5; stream += 2) {
				out.write(frame(0x3, 0, stream, new byte[] { 0, 0, 0, 0x8 }));
			}
			out.flush();
			readSome(socket);
			close(socket, i);
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
			for (int stream = 1; stream <= 5; stream += 2) {
				out.write(headers(stream, "/upload"));
				out.write(frame(0x0, 0, stream, CHUNK));
			}
			pause();
			out.write(frame(0x7, 0, 0, new byte[] { 0, 0, 0, 5, 0, 0, 0, 0 }));
			out.flush();
			readSome(socket);
			close(socket, i);
		}
	}

	/** Collect the server's garbage, then allocate on it, so that the detector reports what it finds; three times. */
	private void settle() throws IOException, InterruptedException {
		for (int round = 0; round < 3; round++) {
			Process gc = new ProcessBuilder("jcmd", Long.toString(this.pid), "GC.run").redirectErrorStream(true).start();
			gc.getInputStream().readAllBytes();
			gc.waitFor(60, TimeUnit.SECONDS);
			for (int k = 0; k < 100; k++) {
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
			Thread.sleep(500);
		}
	}

	private long leakReports() throws IOException {
		try (var lines = Files.lines(this.log, StandardCharsets.ISO_8859_1)) {
			return lines.filter((line) -> line.contains("LEAK:")).count();
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
