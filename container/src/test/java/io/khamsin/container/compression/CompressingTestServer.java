package io.khamsin.container.compression;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/**
 * A test-only HTTP/1.1 server on plain Netty that compresses as the exchange stage will: decide per response, apply
 * the decision's headers, then encode a whole body ({@link WholeBodyCompression}, off the loop when large) or a
 * stream of server-sent events, flushing the encoder at each flush of the response. Not khamsin's pipeline: real
 * clients check the bytes the encoders write.
 * <ul>
 * <li>{@code /json}: {@value #JSON_SIZE} bytes of JSON, compressed in place; {@code /large}: {@value #LARGE_SIZE}
 * bytes, compressed off the loop; {@code /small}: below the threshold; {@code /image}: a type not compressed;</li>
 * <li>{@code /events}: a stream whose events the test sends one at a time ({@link #sendEvent}, {@link #endEvents});
 * {@code /broken}: two events, then the connection closed mid-body as after an application error.</li>
 * </ul>
 */
final class CompressingTestServer implements AutoCloseable {

	static final int JSON_SIZE = 60_000;

	static final int LARGE_SIZE = 2 * 1024 * 1024;

	static final byte[] JSON = Bodies.json(JSON_SIZE);

	static final byte[] LARGE = Bodies.json(LARGE_SIZE);

	static final byte[] SMALL = Bodies.json(100);

	static final byte[] IMAGE = Bodies.random(10_000);

	private final ResponseCompression compression = new ResponseCompression(CompressionConfig
		.of(true, List.of("application/json", "text/event-stream"), 2048, List.of()));

	private final ExecutorService offload = Executors.newSingleThreadExecutor();

	private final WholeBodyCompression whole = new WholeBodyCompression(
			this.compression.config().offloadThreshold(), this.offload);

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final Channel server;

	private volatile StreamState stream;

	final CountDownLatch streamClosed = new CountDownLatch(1);

	CompressingTestServer() throws InterruptedException {
		this.server = new ServerBootstrap().group(this.group)
			.channel(NioServerSocketChannel.class)
			.childHandler(new ChannelInitializer<SocketChannel>() {

				@Override
				protected void initChannel(SocketChannel channel) {
					channel.pipeline().addLast(new HttpServerCodec(), new Handler());
				}

			})
			.bind("127.0.0.1", 0)
			.sync()
			.channel();
	}

	int port() {
		return ((InetSocketAddress) this.server.localAddress()).getPort();
	}

	/** Send one event of the open {@code /events} stream, written and flushed as the bridge flushes a part. */
	void sendEvent(String event) {
		StreamState stream = this.stream;
		stream.ctx.executor().execute(() -> {
			ByteBuf identity = stream.ctx.alloc().buffer().writeBytes(event.getBytes(StandardCharsets.UTF_8));
			if (stream.encoder == null) {
				stream.ctx.writeAndFlush(new DefaultHttpContent(identity));
				return;
			}
			writeIfReadable(stream.ctx, stream.encoder.encode(identity));
			writeIfReadable(stream.ctx, stream.encoder.flush());
			stream.ctx.flush();
		});
	}

	/** End the open {@code /events} stream. */
	void endEvents() {
		StreamState stream = this.stream;
		stream.ctx.executor().execute(() -> {
			ByteBuf last = (stream.encoder != null) ? stream.encoder.finish() : Unpooled.EMPTY_BUFFER;
			stream.ctx.writeAndFlush(new DefaultLastHttpContent(last));
		});
	}

	boolean streamOpen() {
		return this.stream != null;
	}

	private static void writeIfReadable(ChannelHandlerContext ctx, ByteBuf content) {
		if (content.isReadable()) {
			ctx.write(new DefaultHttpContent(content));
		}
		else {
			content.release();
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.server.close().sync();
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
		this.offload.shutdownNow();
	}

	private record StreamState(ChannelHandlerContext ctx, ContentEncoder encoder) {
	}

	private final class Handler extends SimpleChannelInboundHandler<HttpObject> {

		private ContentEncoder streamEncoder;

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, HttpObject message) {
			if (!(message instanceof HttpRequest request)) {
				return;
			}
			boolean head = request.method().equals(HttpMethod.HEAD);
			switch (request.uri()) {
				case "/json" -> whole(ctx, request, head, "application/json", JSON);
				case "/large" -> whole(ctx, request, head, "application/json", LARGE);
				case "/small" -> whole(ctx, request, head, "application/json", SMALL);
				case "/image" -> whole(ctx, request, head, "image/png", IMAGE);
				case "/events" -> events(ctx, request, false);
				case "/broken" -> events(ctx, request, true);
				default -> ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
						HttpResponseStatus.NOT_FOUND, Unpooled.EMPTY_BUFFER));
			}
		}

		private void whole(ChannelHandlerContext ctx, HttpRequest request, boolean head, String type, byte[] body) {
			HttpHeaders headers = new DefaultHttpHeaders().set(HttpHeaderNames.CONTENT_TYPE, type);
			CompressionDecision decision = CompressingTestServer.this.compression.decide(request.headers(), head, 200,
					headers, body.length, false);
			decision.applyTo(headers);
			ByteBuf identity = ctx.alloc().buffer(body.length).writeBytes(body);
			if (!decision.compresses()) {
				respond(ctx, headers, identity, head);
				return;
			}
			CompressingTestServer.this.whole.compress(decision.newEncoder(ctx.alloc()), identity, ctx.executor(),
					(coded, failure) -> {
						if (failure != null) {
							ctx.close();
						}
						else if (!ctx.channel().isActive()) {
							coded.release();
						}
						else {
							respond(ctx, headers, coded, false);
						}
					});
		}

		private void respond(ChannelHandlerContext ctx, HttpHeaders headers, ByteBuf body, boolean head) {
			headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
			if (head) {
				body.release();
				body = Unpooled.EMPTY_BUFFER;
			}
			ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body, headers,
					EmptyHttpHeaders.INSTANCE));
		}

		private void events(ChannelHandlerContext ctx, HttpRequest request, boolean broken) {
			HttpHeaders headers = new DefaultHttpHeaders().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
			CompressionDecision decision = CompressingTestServer.this.compression.decide(request.headers(), false, 200,
					headers, ResponseCompression.UNKNOWN_LENGTH, false);
			decision.applyTo(headers);
			DefaultHttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
					headers);
			HttpUtil.setTransferEncodingChunked(response, true);
			ctx.writeAndFlush(response);
			this.streamEncoder = decision.compresses() ? decision.newEncoder(ctx.alloc()) : null;
			StreamState state = new StreamState(ctx, this.streamEncoder);
			CompressingTestServer.this.stream = state;
			if (broken) {
				sendEvent("data: one\n\n");
				sendEvent("data: two\n\n");
				// The application failed after the head was written: the body can only be cut short.
				ctx.executor().execute(() -> ctx.flush().close());
			}
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			if (this.streamEncoder != null) {
				this.streamEncoder.close();
				CompressingTestServer.this.streamClosed.countDown();
			}
			ctx.fireChannelInactive();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

}
