package io.khamsin.benchmark.soak;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.SSLContext;

/**
 * Slow clients over HTTP/1.1 on TLS, each on a thread and a keep-alive connection of its own: readers that download
 * a file through a small receive buffer a slice at a time with a pause between slices, and senders that upload a
 * body a slice at a time. Both stay well above khamsin's minimums (a socket that takes nothing for
 * {@code send-timeout}, 30 s; a body slower than {@code min-request-body-rate}, 240 B/s), so a server that answers
 * them as it should makes no error: each answer is checked byte for byte (a download) or by its SHA-256 (an
 * upload's receipt).
 */
final class SlowClients implements Workload {

	/** Bytes a slow client reads or writes at a time. */
	static final int SLICE = 16 * 1024;

	/** The pause between two slices: 160 KB/s, a slow mobile link, 600 times the body-rate minimum. */
	static final Duration PAUSE = Duration.ofMillis(100);

	private final InetSocketAddress address;

	private final SSLContext tls;

	private final int readers;

	private final String downloadPath;

	private final byte[] download;

	private final int senders;

	private final byte[] upload;

	private final String receipt;

	private final AtomicLong requests = new AtomicLong();

	private final AtomicLong errors = new AtomicLong();

	private final AtomicReference<String> firstError = new AtomicReference<>();

	SlowClients(InetSocketAddress address, SSLContext tls, int readers, String downloadPath, byte[] download,
			int senders, byte[] upload, String receipt) {
		this.address = address;
		this.tls = tls;
		this.readers = readers;
		this.downloadPath = downloadPath;
		this.download = download.clone();
		this.senders = senders;
		this.upload = upload.clone();
		this.receipt = receipt;
	}

	@Override
	public String name() {
		return "h1-slow";
	}

	@Override
	public String description() {
		return this.readers + " readers of GET " + this.downloadPath + " and " + this.senders + " senders of a "
				+ this.upload.length / 1024 + " KB POST /upload, " + SLICE / 1024 + " KB every " + PAUSE.toMillis()
				+ " ms, keep-alive, TLS";
	}

	@Override
	public Outcome run(Duration duration) throws InterruptedException {
		long deadline = System.nanoTime() + duration.toNanos();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < this.readers + this.senders; i++) {
			boolean reader = i < this.readers;
			Thread thread = new Thread(() -> loop(reader, deadline), "soak-slow-" + i);
			thread.start();
			threads.add(thread);
		}
		for (Thread thread : threads) {
			thread.join();
		}
		return new Outcome(this.requests.get(), this.errors.get(), this.firstError.get());
	}

	private void loop(boolean reader, long deadline) {
		Socket socket = null;
		try {
			while (System.nanoTime() < deadline) {
				try {
					if (socket == null) {
						socket = connect();
					}
					boolean keepAlive = reader ? read(socket) : send(socket);
					this.requests.incrementAndGet();
					if (!keepAlive) {
						socket.close();
						socket = null;
					}
				}
				catch (IOException | RuntimeException ex) {
					error((reader ? "slow read: " : "slow upload: ") + ex);
					close(socket);
					socket = null;
				}
			}
		}
		finally {
			close(socket);
		}
	}

	private Socket connect() throws IOException {
		Socket socket = this.tls.getSocketFactory().createSocket();
		// A small receive window, so that the server meets the slow reader's pace instead of the kernel's buffers.
		socket.setReceiveBufferSize(SLICE);
		socket.connect(this.address, 5000);
		socket.setSoTimeout(30_000);
		return socket;
	}

	/** @return whether the connection stays open */
	private boolean read(Socket socket) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(("GET " + this.downloadPath + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
		InputStream in = new BufferedInputStream(socket.getInputStream(), SLICE);
		Head head = Head.read(in);
		if (head.status != 200 || head.contentLength != this.download.length) {
			throw new IOException("GET " + this.downloadPath + " answered " + head.status + " with "
					+ head.contentLength + " bytes");
		}
		byte[] body = new byte[this.download.length];
		int done = 0;
		while (done < body.length) {
			int n = in.readNBytes(body, done, Math.min(SLICE, body.length - done));
			if (n == 0) {
				throw new IOException("the connection closed after " + done + " bytes of " + body.length);
			}
			done += n;
			pause();
		}
		if (!Arrays.equals(body, this.download)) {
			throw new IOException("GET " + this.downloadPath + " answered other bytes than the file's");
		}
		return head.keepAlive;
	}

	/** @return whether the connection stays open */
	private boolean send(Socket socket) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(("POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
				+ "Content-Length: " + this.upload.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		for (int done = 0; done < this.upload.length; done += SLICE) {
			out.write(this.upload, done, Math.min(SLICE, this.upload.length - done));
			out.flush();
			pause();
		}
		InputStream in = new BufferedInputStream(socket.getInputStream(), 1024);
		Head head = Head.read(in);
		String body = new String(head.body(in), StandardCharsets.UTF_8);
		if (head.status != 200 || !body.equals(this.receipt)) {
			throw new IOException("POST /upload answered " + head.status + ": " + body);
		}
		return head.keepAlive;
	}

	private static void pause() throws IOException {
		try {
			Thread.sleep(PAUSE.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted", ex);
		}
	}

	private void error(String message) {
		this.errors.incrementAndGet();
		this.firstError.compareAndSet(null, message);
	}

	private static void close(Socket socket) {
		if (socket != null) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// closing is all that was left to do
			}
		}
	}

	/** The status line and the headers this client needs of an HTTP/1.1 response. */
	private record Head(int status, long contentLength, boolean chunked, boolean keepAlive) {

		static Head read(InputStream in) throws IOException {
			String statusLine = line(in);
			if (!statusLine.startsWith("HTTP/1.1 ")) {
				throw new IOException("not an HTTP/1.1 answer: " + statusLine);
			}
			int status = Integer.parseInt(statusLine.substring(9, 12));
			long length = -1;
			boolean chunked = false;
			boolean keepAlive = true;
			for (String header = line(in); !header.isEmpty(); header = line(in)) {
				String lower = header.toLowerCase(java.util.Locale.ROOT);
				if (lower.startsWith("content-length:")) {
					length = Long.parseLong(lower.substring(15).trim());
				}
				else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
					chunked = true;
				}
				else if (lower.startsWith("connection:") && lower.contains("close")) {
					keepAlive = false;
				}
			}
			return new Head(status, length, chunked, keepAlive);
		}

		byte[] body(InputStream in) throws IOException {
			if (!this.chunked) {
				return in.readNBytes((int) this.contentLength);
			}
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			for (int size = Integer.parseInt(line(in).trim(), 16); size > 0; size = Integer.parseInt(line(in).trim(), 16)) {
				body.write(in.readNBytes(size));
				line(in);
			}
			line(in);
			return body.toByteArray();
		}

		private static String line(InputStream in) throws IOException {
			StringBuilder line = new StringBuilder();
			for (int b = in.read(); b != '\n'; b = in.read()) {
				if (b < 0) {
					throw new IOException("the connection closed in the middle of an answer's head");
				}
				if (b != '\r') {
					line.append((char) b);
				}
			}
			return line.toString();
		}

	}

}
