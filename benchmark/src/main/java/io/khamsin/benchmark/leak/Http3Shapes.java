package io.khamsin.benchmark.leak;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3GoAwayFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;

/**
 * The shapes of HTTP/3 (RFC 9114) that leave a request body half-sent: streams reset, streams abandoned under the
 * connection's close, a connection left idle until the server's idle timeout ends it, and a GOAWAY followed by the
 * client's close with an application error. Netty's QUIC and HTTP/3 client, one QUIC connection per send (a new
 * handshake each time), the server's certificate not checked. Each half-sent body announces 1 MiB and sends 64 KiB.
 */
final class Http3Shapes implements Shapes {

	/** RFC 9000, section 20.1. */
	private static final int NO_ERROR = 0x0;

	/** RFC 9114, section 8.1. */
	private static final int H3_NO_ERROR = 0x100;

	private static final int H3_INTERNAL_ERROR = 0x102;

	private static final int H3_REQUEST_CANCELLED = 0x10c;

	private static final byte[] CHUNK = new byte[16 * 1024];

	private static final byte[] FORM_START = ("--cut\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n"
			+ "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

	/** Connections of the idle shape left waiting at once. */
	private static final int IDLE_BATCH = 50;

	private final InetSocketAddress address;

	private final Duration serverIdleTimeout;

	private final EventLoopGroup group;

	private final Channel socket;

	/**
	 * @param port the server's HTTP/3 port (UDP)
	 * @param serverIdleTimeout the server's QUIC idle timeout, which the idle shape waits out
	 */
	Http3Shapes(int port, Duration serverIdleTimeout) throws InterruptedException {
		this.address = new InetSocketAddress("127.0.0.1", port);
		this.serverIdleTimeout = serverIdleTimeout;
		this.group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
		QuicSslContext ssl = QuicSslContextBuilder.forClient()
			.trustManager(InsecureTrustManagerFactory.INSTANCE)
			.applicationProtocols(Http3.supportedApplicationProtocols())
			.build();
		this.socket = new Bootstrap().group(this.group)
			.channel(EpollDatagramChannel.class)
			.option(ChannelOption.SO_RCVBUF, 4 * 1024 * 1024)
			.handler(Http3.newQuicClientCodecBuilder()
				.sslContext(ssl)
				// Far longer than the server's: QUIC closes an idle connection after the shorter of the two timeouts
				// (RFC 9000, section 10.1), and the idle shape is about the server's.
				.maxIdleTimeout(Math.max(120_000, serverIdleTimeout.toMillis() * 10), TimeUnit.MILLISECONDS)
				.initialMaxData(16L * 1024 * 1024)
				.initialMaxStreamDataBidirectionalLocal(1024 * 1024)
				.initialMaxStreamDataBidirectionalRemote(1024 * 1024)
				.initialMaxStreamsBidirectional(100)
				.build())
			.bind(0)
			.sync()
			.channel();
	}

	@Override
	public Map<String, Shape> shapes() {
		Map<String, Shape> shapes = new LinkedHashMap<>();
		shapes.put("h3 POST streams reset mid-body (RESET_STREAM and STOP_SENDING, H3_REQUEST_CANCELLED)",
				this::resetMidBody);
		shapes.put("h3 streams abandoned mid-body, then CONNECTION_CLOSE", this::abandonedThenClosed);
		shapes.put("h3 connection idle mid-body until the server's idle timeout", (Batched) this::idleMidBody);
		shapes.put("h3 GOAWAY mid-body, then CONNECTION_CLOSE with H3_INTERNAL_ERROR", this::goAwayMidBody);
		return shapes;
	}

	/** An upload and a multipart form, each half-sent and reset both ways, then the connection closed. */
	private void resetMidBody(int i) throws IOException {
		QuicChannel connection = connect();
		try {
			List<QuicStreamChannel> streams = List.of(halfSent(connection, "/upload"),
					halfSent(connection, "/upload/parts"));
			pause();
			for (QuicStreamChannel stream : streams) {
				// RESET_STREAM and STOP_SENDING, both with the code (RFC 9114, section 4.1.1).
				await(stream.shutdown(H3_REQUEST_CANCELLED), "the reset");
			}
			pause();
		}
		finally {
			close(connection, true, H3_NO_ERROR);
		}
	}

	/** An upload, a form and a body to a route that never reads it, half-sent; then QUIC's CONNECTION_CLOSE. */
	private void abandonedThenClosed(int i) throws IOException {
		QuicChannel connection = connect();
		try {
			halfSent(connection, "/upload");
			halfSent(connection, "/upload/parts");
			halfSent(connection, "/plaintext");
			pause();
		}
		finally {
			close(connection, false, NO_ERROR);
		}
	}

	/**
	 * An upload and a form half-sent on each connection, then nothing until the server's idle timeout has passed with
	 * a margin; a connection that still answers a request then counts as failed, as the server did not close it.
	 */
	private void idleMidBody(int times, List<String> failures) {
		for (int sent = 0; sent < times; sent += IDLE_BATCH) {
			List<QuicChannel> idle = new ArrayList<>();
			for (int k = 0; k < Math.min(IDLE_BATCH, times - sent); k++) {
				try {
					QuicChannel connection = connect();
					idle.add(connection);
					halfSent(connection, "/upload");
					halfSent(connection, "/upload/parts");
				}
				catch (IOException ex) {
					failures.add(ex.toString());
				}
			}
			sleep(this.serverIdleTimeout.plusSeconds(3));
			List<CompletableFuture<Integer>> probes = new ArrayList<>();
			for (QuicChannel connection : idle) {
				probes.add(request(connection, "/plaintext", new byte[0]));
			}
			sleep(Duration.ofSeconds(2));
			for (CompletableFuture<Integer> probe : probes) {
				int status = probe.getNow(-1);
				if (status > 0) {
					failures.add("the connection still answered " + status + " after the server's idle timeout");
				}
			}
			for (QuicChannel connection : idle) {
				close(connection, true, H3_NO_ERROR);
			}
		}
	}

	/**
	 * Three uploads, a form and a body to a route that never reads it, half-sent; the client's GOAWAY on its control
	 * stream (RFC 9114, section 5.2); then the connection closed with an application error.
	 */
	private void goAwayMidBody(int i) throws IOException {
		QuicChannel connection = connect();
		try {
			for (String path : List.of("/upload", "/upload", "/upload", "/upload/parts", "/plaintext")) {
				halfSent(connection, path);
			}
			pause();
			QuicStreamChannel control = Http3.getLocalControlStream(connection);
			if (control == null) {
				throw new IOException("no control stream");
			}
			await(control.writeAndFlush(new DefaultHttp3GoAwayFrame(0)), "the GOAWAY");
			pause();
		}
		finally {
			close(connection, true, H3_INTERNAL_ERROR);
		}
	}

	/** POSTs of 16 KiB to /upload on one connection, ten at a time, each awaited for its answer. */
	@Override
	public void ordinaryTraffic(int requests) {
		QuicChannel connection;
		try {
			connection = connect();
		}
		catch (IOException ex) {
			return;
		}
		try {
			for (int sent = 0; sent < requests; sent += 10) {
				List<CompletableFuture<Integer>> answers = new ArrayList<>();
				for (int k = 0; k < Math.min(10, requests - sent); k++) {
					answers.add(request(connection, "/upload", CHUNK));
				}
				CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
					.completeOnTimeout(null, 10, TimeUnit.SECONDS)
					.join();
			}
		}
		finally {
			close(connection, true, H3_NO_ERROR);
		}
	}

	@Override
	public boolean answers(int seconds) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		do {
			try {
				QuicChannel connection = connect();
				try {
					Integer status = request(connection, "/plaintext", new byte[0])
						.completeOnTimeout(-1, 5, TimeUnit.SECONDS)
						.join();
					if (status == 200) {
						return true;
					}
				}
				finally {
					close(connection, true, H3_NO_ERROR);
				}
			}
			catch (IOException ex) {
				// not yet
			}
			sleep(Duration.ofMillis(500));
		}
		while (System.nanoTime() < deadline);
		return false;
	}

	@Override
	public void close() {
		this.socket.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
	}

	private QuicChannel connect() throws IOException {
		return await(QuicChannel.newBootstrap(this.socket)
			.handler(new Http3ClientConnectionHandler())
			.remoteAddress(this.address)
			.connect(), "the QUIC handshake");
	}

	/**
	 * Open a request stream and send a POST's head, announcing 1 MiB, and 64 KiB of its body (of a form, the start of
	 * a file part), without ending it.
	 * @throws IOException when the stream could not be opened or the server ended it before the part was sent
	 */
	private QuicStreamChannel halfSent(QuicChannel connection, String path) throws IOException {
		QuicStreamChannel stream = await(Http3.newRequestStream(connection, new Answer()), "opening a request stream");
		boolean form = path.endsWith("/parts");
		Http3HeadersFrame head = new DefaultHttp3HeadersFrame();
		head.headers()
			.method("POST")
			.path(path)
			.scheme("https")
			.authority("localhost:" + this.address.getPort())
			.set("content-type", form ? "multipart/form-data; boundary=cut" : "application/octet-stream")
			.setLong("content-length", 1024 * 1024);
		stream.write(head);
		if (form) {
			stream.write(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(FORM_START)));
		}
		for (int k = 0; k < 3; k++) {
			stream.write(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(CHUNK)));
		}
		await(stream.writeAndFlush(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(CHUNK))), "sending part of the body");
		return stream;
	}

	/** A whole request (a POST when it has a body, else a GET); its answer's status, or -1 for none. */
	private CompletableFuture<Integer> request(QuicChannel connection, String path, byte[] body) {
		Answer answer = new Answer();
		Http3.newRequestStream(connection, answer).addListener((Future<QuicStreamChannel> opened) -> {
			if (!opened.isSuccess()) {
				answer.status.complete(-1);
				return;
			}
			QuicStreamChannel stream = opened.getNow();
			Http3HeadersFrame head = new DefaultHttp3HeadersFrame();
			head.headers()
				.method((body.length > 0) ? "POST" : "GET")
				.path(path)
				.scheme("https")
				.authority("localhost:" + this.address.getPort());
			if (body.length > 0) {
				head.headers().setLong("content-length", body.length);
				stream.write(head);
				stream.writeAndFlush(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(body)))
					.addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
			}
			else {
				stream.writeAndFlush(head).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
			}
		});
		return answer.status;
	}

	private static void close(QuicChannel connection, boolean application, int error) {
		connection.close(application, error, Unpooled.EMPTY_BUFFER).awaitUninterruptibly(5, TimeUnit.SECONDS);
	}

	private static <T> T await(Future<T> future, String what) throws IOException {
		if (!future.awaitUninterruptibly(10, TimeUnit.SECONDS)) {
			throw new IOException(what + ": no outcome within 10 s");
		}
		if (!future.isSuccess()) {
			throw new IOException(what + ": " + future.cause(), future.cause());
		}
		return future.getNow();
	}

	/** Let the server take what was sent before the next step. */
	private static void pause() {
		sleep(Duration.ofMillis(20));
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The answer on a request stream: its final status, every frame released. */
	private static final class Answer extends Http3RequestStreamInboundHandler {

		final CompletableFuture<Integer> status = new CompletableFuture<>();

		private int code = -1;

		@Override
		protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
			CharSequence status = frame.headers().status();
			if (this.code == -1 && status != null && status.charAt(0) != '1') {
				this.code = Integer.parseInt(status.toString());
			}
			ReferenceCountUtil.release(frame);
		}

		@Override
		protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
			frame.release();
		}

		@Override
		protected void channelInputClosed(ChannelHandlerContext ctx) {
			this.status.complete(this.code);
			ctx.close();
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) throws Exception {
			this.status.complete(this.code);
			super.channelInactive(ctx);
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			// A reset or STOP_SENDING from the server ends the shape's stream; nothing to report.
			this.status.complete(this.code);
			ctx.close();
		}

	}

}
