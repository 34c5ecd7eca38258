package io.khamsin.benchmark.load;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.DefaultQuicStreamFrame;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicException;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamLimitChangedEvent;
import io.netty.handler.codec.quic.QuicStreamType;
import io.netty.handler.codec.quic.QuicTransportError;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;

/**
 * The benchmark's HTTP/3 load generator, as h2load is its HTTP/2 one (h2load has no HTTP/3 in Debian's build): Netty's
 * QUIC and HTTP/3 client on one epoll event loop, {@code connections} QUIC connections each keeping {@code streams}
 * requests in flight (closed loop: a stream that ends starts the next), {@code GET} of one path, for a given time after
 * a short warm-up. Run as a process of its own, pinned to the load core like h2load and kept up across runs by
 * {@link H3LoadProcess}; it prints one line that {@link Result#parse} reads. A request for which the server has
 * granted no stream yet waits for QUIC's {@code MAX_STREAMS}, as a client queues requests.
 */
public final class H3Load {

	/** The argument that makes {@link #main} take one run a line from standard input. */
	static final String SERVE = "--serve";

	/** How a line of {@link #main}'s output starts when a run could not be made. */
	static final String FAILED_PREFIX = "h3load-failed:";

	private static final int REQUEST_CANCELLED = 0x10c;

	/** Room for each datagram of a read: more than the largest a QUIC server sends (1,472 bytes on Ethernet). */
	private static final int DATAGRAM_SLOT = 2048;

	private static final int DATAGRAMS_PER_READ = 16;

	private final InetSocketAddress address;

	private final String path;

	private final Pacing pacing;

	private Channel socket;

	/** The connections open now, closed at the end of a paced run. */
	private final java.util.Set<QuicChannel> open = java.util.concurrent.ConcurrentHashMap.newKeySet();

	private final AtomicLong succeeded = new AtomicLong();

	private final AtomicLong non2xx = new AtomicLong();

	private final AtomicLong failed = new AtomicLong();

	private volatile boolean running = true;

	private H3Load(InetSocketAddress address, String path) {
		this(address, path, Pacing.CLOSED_LOOP);
	}

	private H3Load(InetSocketAddress address, String path, Pacing pacing) {
		this.address = address;
		this.path = path;
		this.pacing = pacing;
	}

	/**
	 * How a paced run sends: each connection keeps one request in flight and waits {@code pause} after each answer
	 * before the next (a moderate rate, not a peak), a body if there is one, the answer's body length checked.
	 *
	 * @param method the request method
	 * @param body the request body, empty for none
	 * @param expectedBodyLength the body length every answer must have, or {@code -1} for any; another length counts
	 * as failed
	 * @param pause the wait between an answer and the next request on its connection
	 * @param connectionPerRequest whether each request goes on a new QUIC connection, closed after the answer
	 */
	public record Pacing(String method, byte[] body, long expectedBodyLength, Duration pause,
			boolean connectionPerRequest) {

		static final Pacing CLOSED_LOOP = new Pacing("GET", new byte[0], -1, Duration.ZERO, false);

	}

	/**
	 * Load a target at a moderate rate in this process, counting from the first request, until {@code duration} is
	 * over; the connections are closed before it returns.
	 * @param address the target
	 * @param path the path of every request
	 * @param connections how many requests are in flight at once (each on its own connection)
	 * @param pacing how each connection sends
	 * @param duration how long to send
	 * @return what was measured: failed counts requests with no answer or a body of another length
	 * @throws Exception if a connection cannot be made
	 */
	public static Result paced(InetSocketAddress address, String path, int connections, Pacing pacing,
			Duration duration) throws Exception {
		return new H3Load(address, path, pacing).pacedLoad(connections, duration);
	}

	private Result pacedLoad(int connections, Duration duration) throws Exception {
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
		try {
			this.socket = socket(group);
			for (int i = 0; i < connections; i++) {
				QuicChannel connection = connect(this.socket).get(10, TimeUnit.SECONDS);
				connection.eventLoop().execute(() -> next(connection));
			}
			long start = System.nanoTime();
			Thread.sleep(duration.toMillis());
			this.running = false;
			long elapsed = System.nanoTime() - start;
			// The requests in flight are answered, or fail, before the count is taken.
			group.submit(() -> null).get(5, TimeUnit.SECONDS);
			Thread.sleep(Math.min(2000, 200 + this.pacing.pause().toMillis()));
			return new Result(this.succeeded.get() * 1e9 / elapsed, this.succeeded.get(), this.failed.get(),
					this.non2xx.get(), "h3");
		}
		finally {
			this.running = false;
			group.submit(() -> {
				List.copyOf(this.open).forEach(QuicChannel::close);
			}).awaitUninterruptibly(5, TimeUnit.SECONDS);
			if (this.socket != null) {
				this.socket.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
			}
			group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
		}
	}

	/**
	 * Run once: {@code host port path connections streams seconds}, its result printed. Or, with {@value #SERVE}
	 * alone, run as {@link H3LoadProcess}'s generator: one such line of arguments a run on standard input, one line of
	 * result (or of failure, starting {@value #FAILED_PREFIX}) printed for each, until the input ends.
	 * @param args the arguments
	 * @throws Exception if the load cannot start
	 */
	public static void main(String[] args) throws Exception {
		if (args.length == 1 && args[0].equals(SERVE)) {
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			for (String line = commands.readLine(); line != null; line = commands.readLine()) {
				try {
					System.out.println(run(line.trim().split(" ")));
				}
				catch (Exception ex) {
					System.out.println(FAILED_PREFIX + " " + ex);
				}
				System.out.flush();
			}
		}
		else {
			System.out.println(run(args));
		}
		System.exit(0);
	}

	private static Result run(String[] args) throws Exception {
		if (args.length != 6) {
			throw new IllegalArgumentException("expected host port path connections streams seconds, not "
					+ String.join(" ", args));
		}
		InetSocketAddress address = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
		return run(address, args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]));
	}

	/**
	 * Load a target in this process.
	 * @param address the target
	 * @param path the path of every request
	 * @param connections QUIC connections
	 * @param streams requests in flight per connection
	 * @param seconds how long to count, after a second of warm-up
	 * @return what was measured
	 * @throws Exception if a connection cannot be made
	 */
	public static Result run(InetSocketAddress address, String path, int connections, int streams, int seconds)
			throws Exception {
		return new H3Load(address, path).load(connections, streams, seconds);
	}

	/**
	 * One request, for a target's readiness and integrity checks.
	 * @param address the target
	 * @param path the path
	 * @return the status ({@code -1} when no answer came within 5 s), content type and body
	 */
	public static Answer fetch(InetSocketAddress address, String path) {
		H3Load load = new H3Load(address, path);
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
		try {
			Channel socket = load.socket(group);
			QuicChannel connection = load.connect(socket).get(5, TimeUnit.SECONDS);
			CompletableFuture<Answer> answer = new CompletableFuture<>();
			QuicStreamChannel stream = Http3.newRequestStream(connection, new Http3RequestStreamInboundHandler() {

				private int status = -1;

				private String contentType;

				private final ByteArrayOutputStream body = new ByteArrayOutputStream();

				@Override
				protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
					if (this.status == -1) {
						this.status = Integer.parseInt(frame.headers().status().toString());
						CharSequence type = frame.headers().get("content-type");
						this.contentType = (type != null) ? type.toString() : null;
					}
					ReferenceCountUtil.release(frame);
				}

				@Override
				protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
					byte[] bytes = new byte[frame.content().readableBytes()];
					frame.content().readBytes(bytes);
					this.body.writeBytes(bytes);
					frame.release();
				}

				@Override
				protected void channelInputClosed(ChannelHandlerContext ctx) {
					answer.complete(new Answer(this.status, this.contentType, this.body.toByteArray()));
				}

			}).get(5, TimeUnit.SECONDS);
			load.request(stream);
			Answer result = answer.get(5, TimeUnit.SECONDS);
			connection.close();
			socket.close();
			return result;
		}
		catch (Exception ex) {
			return new Answer(-1, null, new byte[0]);
		}
		finally {
			group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
		}
	}

	/**
	 * One request's answer.
	 * @param status the status, {@code -1} for none
	 * @param contentType its {@code content-type}, or {@code null}
	 * @param body its body
	 */
	public record Answer(int status, String contentType, byte[] body) {
	}

	private Result load(int connections, int streams, int seconds) throws Exception {
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
		try {
			Channel socket = socket(group);
			List<QuicChannel> open = new ArrayList<>();
			for (int i = 0; i < connections; i++) {
				open.add(connect(socket).get(10, TimeUnit.SECONDS));
			}
			for (QuicChannel connection : open) {
				for (int i = 0; i < streams; i++) {
					connection.eventLoop().execute(() -> next(connection));
				}
			}
			// A second of warm-up, as h2load's --warm-up-time=1, then the counted run.
			Thread.sleep(1000);
			long startSucceeded = this.succeeded.get();
			long startNon2xx = this.non2xx.get();
			long startFailed = this.failed.get();
			long start = System.nanoTime();
			Thread.sleep(seconds * 1000L);
			long elapsed = System.nanoTime() - start;
			long done = this.succeeded.get() - startSucceeded;
			Result result = new Result(done * 1e9 / elapsed, done, this.failed.get() - startFailed,
					this.non2xx.get() - startNon2xx, "h3");
			this.running = false;
			for (QuicChannel connection : open) {
				connection.close();
			}
			socket.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
			return result;
		}
		finally {
			group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
		}
	}

	private Channel socket(EventLoopGroup group) throws InterruptedException {
		QuicSslContext ssl = QuicSslContextBuilder.forClient()
			.trustManager(InsecureTrustManagerFactory.INSTANCE)
			.applicationProtocols(Http3.supportedApplicationProtocols())
			.build();
		return new Bootstrap().group(group)
			.channel(EpollDatagramChannel.class)
			// Every connection's packets arrive on this one socket: the kernel's default buffer (208 KiB) dropped some
			// under load, and each drop costs a QUIC loss recovery that the run would count against the server.
			.option(ChannelOption.SO_RCVBUF, 4 * 1024 * 1024)
			// Up to 16 datagrams a read by one recvmmsg, as the server reads them: this one event loop is what limits a
			// run. Measured by hand against khamsin (seven interleaved 14 s runs each): 1.08x the requests of one
			// recvmsg a datagram, medians, within this machine's noise.
			.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, DATAGRAM_SLOT)
			.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(DATAGRAM_SLOT * DATAGRAMS_PER_READ))
			.handler(Http3.newQuicClientCodecBuilder()
				.sslContext(ssl)
				.maxIdleTimeout(30_000, TimeUnit.MILLISECONDS)
				.initialMaxData(64L * 1024 * 1024)
				.initialMaxStreamDataBidirectionalLocal(1024 * 1024)
				.initialMaxStreamDataBidirectionalRemote(1024 * 1024)
				.initialMaxStreamsBidirectional(1000)
				.build())
			.bind(0)
			.sync()
			.channel();
	}

	private Future<QuicChannel> connect(Channel socket) {
		Future<QuicChannel> connecting = QuicChannel.newBootstrap(socket)
			.handler(new ChannelInitializer<QuicChannel>() {

				@Override
				protected void initChannel(QuicChannel connection) {
					connection.pipeline().addLast(new Http3ClientConnectionHandler(), new StreamCredit(connection));
				}

			})
			.remoteAddress(this.address)
			.connect();
		connecting.addListener((Future<QuicChannel> connected) -> {
			if (connected.isSuccess()) {
				QuicChannel connection = connected.getNow();
				this.open.add(connection);
				connection.closeFuture().addListener((closed) -> this.open.remove(connection));
			}
		});
		return connecting;
	}

	/**
	 * Open the next stream of a connection and send its request; on the connection's event loop. A request for which
	 * the server has granted no stream yet waits for QUIC's {@code MAX_STREAMS} ({@link StreamCredit}), as a client
	 * queues requests.
	 */
	private void next(QuicChannel connection) {
		if (!this.running || !connection.isActive()) {
			return;
		}
		if (connection.peerAllowedStreams(QuicStreamType.BIDIRECTIONAL) == 0) {
			connection.pipeline().get(StreamCredit.class).waiting++;
			return;
		}
		Http3.newRequestStream(connection, new Response(connection)).addListener((Future<QuicStreamChannel> opened) -> {
			if (opened.isSuccess()) {
				request(opened.getNow());
			}
			else if (opened.cause() instanceof QuicException quic
					&& quic.error() == QuicTransportError.STREAM_LIMIT_ERROR) {
				connection.pipeline().get(StreamCredit.class).waiting++;
			}
			else {
				this.failed.incrementAndGet();
				connection.eventLoop().schedule(() -> next(connection), 1, TimeUnit.MILLISECONDS);
			}
		});
	}

	/**
	 * The requests of one connection waiting for a stream, sent as the server grants more. Tried a millisecond later
	 * instead, each waiting request made and failed a stream every millisecond: with 100 requests in flight per
	 * connection (the server's grant) the generator spent its core on that and drew about 700 req/s.
	 */
	private final class StreamCredit extends ChannelInboundHandlerAdapter {

		private final QuicChannel connection;

		private int waiting;

		StreamCredit(QuicChannel connection) {
			this.connection = connection;
		}

		@Override
		public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
			if (event instanceof QuicStreamLimitChangedEvent) {
				while (this.waiting > 0 && this.connection.peerAllowedStreams(QuicStreamType.BIDIRECTIONAL) > 0) {
					this.waiting--;
					next(this.connection);
				}
			}
			ctx.fireUserEventTriggered(event);
		}

	}

	/** After an answer: the next request at once (closed loop), or after the pause, on a new connection or not. */
	private void after(QuicChannel connection) {
		Duration pause = this.pacing.pause();
		if (pause.isZero()) {
			next(connection);
			return;
		}
		connection.eventLoop().schedule(() -> {
			if (!this.pacing.connectionPerRequest()) {
				next(connection);
				return;
			}
			connection.close();
			if (this.running) {
				connect(this.socket).addListener((Future<QuicChannel> connected) -> {
					if (connected.isSuccess()) {
						next(connected.getNow());
					}
					else if (this.running) {
						this.failed.incrementAndGet();
					}
				});
			}
		}, pause.toNanos(), TimeUnit.NANOSECONDS);
	}

	private void request(QuicStreamChannel stream) {
		Http3HeadersFrame head = new DefaultHttp3HeadersFrame();
		head.headers()
			.method(this.pacing.method())
			.path(this.path)
			.authority(this.address.getHostString() + ":" + this.address.getPort())
			.scheme("https");
		byte[] body = this.pacing.body();
		if (body.length > 0) {
			head.headers().setLong("content-length", body.length);
			stream.write(head);
			stream.writeAndFlush(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(body)))
				.addListener((done) -> stream.shutdownOutput());
			return;
		}
		// The FIN in one STREAM frame with the HEADERS, as browsers send a request without a body: added below the
		// HTTP/3 codec, which writes frames only (and may hold the first back until the QPACK encoder stream is open).
		stream.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {

			@Override
			public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
				if (msg instanceof ByteBuf bytes) {
					ctx.pipeline().remove(this);
					ctx.write(new DefaultQuicStreamFrame(bytes, true), promise);
					return;
				}
				ctx.write(msg, promise);
			}

		});
		stream.writeAndFlush(head);
	}

	private final class Response extends Http3RequestStreamInboundHandler {

		private final QuicChannel connection;

		private boolean ok;

		private boolean answered;

		private long bodyBytes;

		Response(QuicChannel connection) {
			this.connection = connection;
		}

		@Override
		protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
			if (!this.answered) {
				this.answered = true;
				this.ok = frame.headers().status().charAt(0) == '2';
			}
			ReferenceCountUtil.release(frame);
		}

		@Override
		protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
			this.bodyBytes += frame.content().readableBytes();
			frame.release();
		}

		@Override
		protected void channelInputClosed(ChannelHandlerContext ctx) {
			long expected = H3Load.this.pacing.expectedBodyLength();
			if (!this.answered) {
				H3Load.this.failed.incrementAndGet();
			}
			else if (!this.ok) {
				H3Load.this.non2xx.incrementAndGet();
			}
			else if (expected >= 0 && this.bodyBytes != expected) {
				H3Load.this.failed.incrementAndGet();
			}
			else {
				H3Load.this.succeeded.incrementAndGet();
			}
			ctx.close();
			after(this.connection);
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			if (H3Load.this.running) {
				H3Load.this.failed.incrementAndGet();
			}
			((QuicStreamChannel) ctx.channel()).shutdown(REQUEST_CANCELLED);
			ctx.close();
		}

	}

	/**
	 * What a run measured.
	 * @param rate successful requests per second
	 * @param succeeded successful requests
	 * @param failed requests that got no answer
	 * @param non2xx answers that were not 2xx
	 * @param protocol the protocol spoken
	 */
	public record Result(double rate, long succeeded, long failed, long non2xx, String protocol) {

		static final String PREFIX = "h3load:";

		@Override
		public String toString() {
			return PREFIX + " rate=" + this.rate + " succeeded=" + this.succeeded + " failed=" + this.failed
					+ " non2xx=" + this.non2xx + " protocol=" + this.protocol;
		}

		/**
		 * Read the line a run printed.
		 * @param output what the process printed
		 * @return the result
		 * @throws IllegalStateException when it printed none, with its output
		 */
		public static Result parse(String output) {
			for (String line : output.split("\n")) {
				if (line.startsWith(PREFIX)) {
					java.util.Map<String, String> values = new java.util.HashMap<>();
					for (String pair : line.substring(PREFIX.length()).trim().split(" ")) {
						int eq = pair.indexOf('=');
						values.put(pair.substring(0, eq), pair.substring(eq + 1));
					}
					return new Result(Double.parseDouble(values.get("rate")), Long.parseLong(values.get("succeeded")),
							Long.parseLong(values.get("failed")), Long.parseLong(values.get("non2xx")),
							values.get("protocol"));
				}
			}
			throw new IllegalStateException("the HTTP/3 load printed no result:\n" + output);
		}

		/** @return what went wrong, empty for nothing */
		public String errors() {
			List<String> errors = new ArrayList<>();
			if (this.failed > 0) {
				errors.add(this.failed + " requests failed");
			}
			if (this.non2xx > 0) {
				errors.add(this.non2xx + " answers not 2xx");
			}
			return String.join("; ", errors);
		}

	}

}
