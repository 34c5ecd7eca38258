package io.khamsin.benchmark.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.bouncycastle.tls.DefaultTlsClient;
import org.bouncycastle.tls.ProtocolVersion;
import org.bouncycastle.tls.ServerOnlyTlsAuthentication;
import org.bouncycastle.tls.TlsAuthentication;
import org.bouncycastle.tls.TlsClientProtocol;
import org.bouncycastle.tls.TlsServerCertificate;
import org.bouncycastle.tls.crypto.impl.bc.BcTlsCrypto;

/**
 * A TLS 1.3 KeyUpdate flood (RFC 8446 section 4.6.3), run as a process of its own: {@code connections} clients on
 * Bouncy Castle's TLS, the one TLS stack on the JVM that lets a client send a KeyUpdate when it likes (its
 * {@code send13KeyUpdate}, reached by a subclass). Each sends KeyUpdates that ask the server to update its own keys
 * too, {@code burst} at a time, and after each burst one {@code GET /plaintext} whose answer it reads, and so on
 * for {@code seconds}. BoringSSL ends a connection after 32 KeyUpdates in a row without application data between
 * them, so a burst of 32 or less is the most a client can send there and stay connected; a larger burst measures
 * that limit. Prints {@value HandshakeFlood#STARTED} once its clients run, and one line when done:
 * {@code key_updates=.. requests=.. connections_closed=.. first_error=..}.
 *
 * <pre class="code">
 * java -cp ... io.khamsin.benchmark.load.KeyUpdateFlood HOST PORT CONNECTIONS BURST SECONDS
 * </pre>
 */
public final class KeyUpdateFlood {

	private static final byte[] REQUEST = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n"
		.getBytes(StandardCharsets.US_ASCII);

	private final AtomicLong keyUpdates = new AtomicLong();

	private final AtomicLong requests = new AtomicLong();

	private final AtomicLong closed = new AtomicLong();

	private final AtomicReference<String> firstError = new AtomicReference<>();

	private volatile boolean running = true;

	void run(InetSocketAddress address, int burst, long deadlineNanos) {
		while (this.running && System.nanoTime() < deadlineNanos) {
			try (Socket socket = new Socket()) {
				socket.connect(address, 5000);
				socket.setSoTimeout(10_000);
				socket.setTcpNoDelay(true);
				KeyUpdatingProtocol tls = new KeyUpdatingProtocol(socket.getInputStream(), socket.getOutputStream());
				tls.connect(new Tls13Client());
				InputStream in = tls.getInputStream();
				OutputStream out = tls.getOutputStream();
				while (this.running && System.nanoTime() < deadlineNanos) {
					for (int i = 0; i < burst; i++) {
						tls.keyUpdate();
						this.keyUpdates.incrementAndGet();
					}
					out.write(REQUEST);
					out.flush();
					readResponse(in);
					this.requests.incrementAndGet();
				}
			}
			catch (IOException ex) {
				this.closed.incrementAndGet();
				this.firstError.compareAndSet(null, ex.toString());
			}
		}
	}

	/** Reads one response with a {@code content-length}, or fails when the server closes first. */
	private static void readResponse(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("the server closed the connection");
			}
			head.append((char) b);
		}
		String lower = head.toString().toLowerCase(Locale.ROOT);
		int at = lower.indexOf("content-length:");
		int length = (at < 0) ? 0
				: Integer.parseInt(lower.substring(at + 15, lower.indexOf('\r', at)).trim());
		for (int i = 0; i < length; i++) {
			if (in.read() < 0) {
				throw new IOException("the server closed the connection in a body");
			}
		}
	}

	String counts() {
		return "key_updates=" + this.keyUpdates.get() + " requests=" + this.requests.get() + " connections_closed="
				+ this.closed.get() + " first_error=" + this.firstError.get();
	}

	/** Bouncy Castle's client protocol with its KeyUpdate sender made public. */
	static final class KeyUpdatingProtocol extends TlsClientProtocol {

		KeyUpdatingProtocol(InputStream in, OutputStream out) {
			super(in, out);
		}

		/** Send a KeyUpdate that asks the peer to update its keys too. */
		void keyUpdate() throws IOException {
			send13KeyUpdate(true);
		}

	}

	/** TLS 1.3 only, trusting any server (the benchmark's own targets on loopback). */
	static final class Tls13Client extends DefaultTlsClient {

		Tls13Client() {
			super(new BcTlsCrypto(new SecureRandom()));
		}

		@Override
		protected ProtocolVersion[] getSupportedVersions() {
			return ProtocolVersion.TLSv13.only();
		}

		@Override
		public TlsAuthentication getAuthentication() {
			return new ServerOnlyTlsAuthentication() {

				@Override
				public void notifyServerCertificate(TlsServerCertificate serverCertificate) {
				}

			};
		}

	}

	public static void main(String[] args) throws InterruptedException {
		if (args.length != 5) {
			System.err.println("usage: KeyUpdateFlood HOST PORT CONNECTIONS BURST SECONDS");
			System.exit(2);
		}
		InetSocketAddress address = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
		int connections = Integer.parseInt(args[2]);
		int burst = Integer.parseInt(args[3]);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[4]));
		KeyUpdateFlood flood = new KeyUpdateFlood();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < connections; i++) {
			Thread thread = new Thread(() -> flood.run(address, burst, deadline), "key-update-" + i);
			thread.setDaemon(true);
			thread.start();
			threads.add(thread);
		}
		System.out.println(HandshakeFlood.STARTED);
		System.out.flush();
		for (Thread thread : threads) {
			thread.join();
		}
		System.out.println(flood.counts());
	}

}
