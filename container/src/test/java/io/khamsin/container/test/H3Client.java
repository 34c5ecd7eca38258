package io.khamsin.container.test;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.DefaultQuicStreamFrame;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import io.netty.handler.codec.quic.QuicException;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicTransportError;
import io.netty.util.ReferenceCountUtil;

/**
 * An HTTP/3 client for tests: Netty's QUIC and HTTP/3 codecs on one UDP socket, one QUIC connection, each request on
 * a stream of its own. Trusts the given certificate authority and sends the server name {@code localhost}.
 */
public final class H3Client implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	/** The request, or its response, is no longer needed (RFC 9114, section 8.1). */
	private static final int REQUEST_CANCELLED = 0x10c;

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final Channel socket;

	private final QuicChannel connection;

	private final int port;

	private final CompletableFuture<QuicConnectionCloseEvent> closedByPeer = new CompletableFuture<>();

	/**
	 * Connect to a server.
	 * @param port the server's UDP port
	 * @param ca the authority that issued the server's certificate
	 * @throws Exception if the handshake fails
	 */
	public H3Client(int port, X509Certificate ca) throws Exception {
		this(port, port, ca);
	}

	/**
	 * Connect to a server through a relay.
	 * @param relayPort the UDP port the client sends to
	 * @param port the server's port, as the requests name it
	 * @param ca the authority that issued the server's certificate
	 * @throws Exception if the handshake fails
	 */
	public H3Client(int relayPort, int port, X509Certificate ca) throws Exception {
		this.port = port;
		QuicSslContext ssl = QuicSslContextBuilder.forClient()
			.trustManager(ca)
			.applicationProtocols(Http3.supportedApplicationProtocols())
			.build();
		this.socket = new Bootstrap().group(this.group)
			.channel(NioDatagramChannel.class)
			.handler(Http3.newQuicClientCodecBuilder()
				.sslContext(ssl)
				.sslEngineProvider((quic) -> ssl.newEngine(quic.alloc(), "localhost", port))
				.maxIdleTimeout(30_000, TimeUnit.MILLISECONDS)
				.initialMaxData(64L * 1024 * 1024)
				.initialMaxStreamDataBidirectionalLocal(16L * 1024 * 1024)
				.initialMaxStreamDataBidirectionalRemote(16L * 1024 * 1024)
				.initialMaxStreamsBidirectional(1000)
				.build())
			.bind(0)
			.sync()
			.channel();
		try {
			this.connection = QuicChannel.newBootstrap(this.socket)
				.handler(new ChannelInitializer<QuicChannel>() {

					@Override
					protected void initChannel(QuicChannel channel) {
						channel.pipeline().addLast(new Http3ClientConnectionHandler(), new ChannelInboundHandlerAdapter() {

							@Override
							public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
								if (event instanceof QuicConnectionCloseEvent close) {
									H3Client.this.closedByPeer.complete(close);
								}
								ctx.fireUserEventTriggered(event);
							}

						});
					}

				})
				.remoteAddress(new InetSocketAddress("127.0.0.1", relayPort))
				.connect()
				.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (Exception ex) {
			close();
			throw ex;
		}
	}

	/** @return the QUIC connection */
	public QuicChannel connection() {
		return this.connection;
	}

	/** @return the server's {@code CONNECTION_CLOSE}, once it came */
	public CompletableFuture<QuicConnectionCloseEvent> closedByPeer() {
		return this.closedByPeer;
	}

	/**
	 * Send a request and wait for its whole response.
	 * @param method the method
	 * @param path the path
	 * @param body the request body, or {@code null} for none
	 * @return the response
	 * @throws Exception if it fails or times out
	 */
	public Response send(String method, String path, byte[] body) throws Exception {
		return sendAsync(method, path, body, (headers) -> {
		}).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
	}

	/**
	 * Send a request.
	 * @param method the method
	 * @param path the path
	 * @param body the request body, or {@code null} for none
	 * @param extra more request fields
	 * @return the response, once whole
	 * @throws Exception if the stream cannot be opened
	 */
	public CompletableFuture<Response> sendAsync(String method, String path, byte[] body, Consumer<Http3Headers> extra)
			throws Exception {
		CompletableFuture<Response> response = new CompletableFuture<>();
		QuicStreamChannel stream = open(new Collector(response));
		Http3HeadersFrame head = new DefaultHttp3HeadersFrame();
		head.headers().method(method).path(path).authority("localhost:" + this.port).scheme("https");
		extra.accept(head.headers());
		if (body == null) {
			// A request without a body ends with its HEADERS, in one STREAM frame, as browsers and curl send it.
			endWithFirstWrite(stream);
			stream.writeAndFlush(head);
		}
		else {
			stream.write(head);
			stream.writeAndFlush(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(body)))
				.addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
		}
		return response;
	}

	/**
	 * Send a request head and the start of its body, and then nothing: the body never ends.
	 * @param method the method
	 * @param path the path
	 * @param part the start of the body
	 * @return the response, if the server answers one
	 * @throws Exception if the stream cannot be opened
	 */
	public CompletableFuture<Response> sendUnfinished(String method, String path, byte[] part) throws Exception {
		CompletableFuture<Response> response = new CompletableFuture<>();
		QuicStreamChannel stream = open(new Collector(response));
		Http3HeadersFrame head = new DefaultHttp3HeadersFrame();
		head.headers().method(method).path(path).authority("localhost:" + this.port).scheme("https");
		stream.write(head);
		stream.writeAndFlush(new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(part)));
		return response;
	}

	/**
	 * Ask for a response and reset its stream once some of its body has arrived, as a browser does when the user
	 * leaves the page ({@code H3_REQUEST_CANCELLED}, RFC 9114, section 8.1).
	 * @param path the path
	 * @param afterBytes how much of the body to take first
	 * @return how much of the body arrived before the reset
	 * @throws Exception if the stream cannot be opened
	 */
	public CompletableFuture<Long> getAndCancel(String path, long afterBytes) throws Exception {
		CompletableFuture<Long> cancelled = new CompletableFuture<>();
		QuicStreamChannel stream = open(new Http3RequestStreamInboundHandler() {

			private long received;

			@Override
			protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
				ReferenceCountUtil.release(frame);
			}

			@Override
			protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
				this.received += frame.content().readableBytes();
				frame.release();
				if (this.received >= afterBytes && !cancelled.isDone()) {
					cancelled.complete(this.received);
					((QuicStreamChannel) ctx.channel()).shutdown(REQUEST_CANCELLED);
				}
			}

			@Override
			protected void channelInputClosed(ChannelHandlerContext ctx) {
				cancelled.completeExceptionally(new IllegalStateException("The whole body arrived: " + this.received));
			}

			@Override
			public void channelInactive(ChannelHandlerContext ctx) throws Exception {
				cancelled.completeExceptionally(new IllegalStateException("The stream closed after " + this.received
						+ " bytes"));
				super.channelInactive(ctx);
			}

		});
		Http3HeadersFrame head = new DefaultHttp3HeadersFrame();
		head.headers().method("GET").path(path).authority("localhost:" + this.port).scheme("https");
		endWithFirstWrite(stream);
		stream.writeAndFlush(head);
		return cancelled;
	}

	/**
	 * Open a request stream, waiting for the server to grant one when as many as it allows are open (a client queues
	 * its requests until the server's {@code MAX_STREAMS} arrives).
	 */
	private QuicStreamChannel open(ChannelHandler handler) throws Exception {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (true) {
			try {
				return Http3.newRequestStream(this.connection, handler).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (ExecutionException ex) {
				if (!(ex.getCause() instanceof QuicException quic) || quic.error() != QuicTransportError.STREAM_LIMIT_ERROR
						|| System.nanoTime() > deadline) {
					throw ex;
				}
				Thread.sleep(5);
			}
		}
	}

	/**
	 * Send the stream's FIN with the first bytes the HTTP/3 codec writes (a request's HEADERS frame), as one STREAM
	 * frame: the codec writes frames only, and a FIN asked for after the frame's write is done may leave in a packet of
	 * its own, after which the server sees a head whose request may still have a body.
	 * @param stream a request stream not yet written to
	 */
	public static void endWithFirstWrite(QuicStreamChannel stream) {
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
	}

	@Override
	public void close() {
		if (this.connection != null) {
			this.connection.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
		}
		if (this.socket != null) {
			this.socket.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
		}
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
	}

	/**
	 * A whole response.
	 * @param headers its field section
	 * @param body its body
	 */
	public record Response(Http3Headers headers, byte[] body) {

		/** @return the status */
		public int status() {
			return Integer.parseInt(this.headers.status().toString());
		}

		/** @return the body as text */
		public String text() {
			return new String(this.body, java.nio.charset.StandardCharsets.UTF_8);
		}

	}

	private static final class Collector extends Http3RequestStreamInboundHandler {

		private final CompletableFuture<Response> response;

		private final ByteArrayOutputStream body = new ByteArrayOutputStream();

		private Http3Headers headers;

		Collector(CompletableFuture<Response> response) {
			this.response = response;
		}

		@Override
		protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
			CharSequence status = frame.headers().status();
			if (this.headers == null && status != null && status.charAt(0) != '1') {
				this.headers = frame.headers();
			}
			ReferenceCountUtil.release(frame);
		}

		@Override
		protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
			ByteBuf content = frame.content();
			byte[] bytes = new byte[content.readableBytes()];
			content.readBytes(bytes);
			this.body.writeBytes(bytes);
			frame.release();
		}

		@Override
		protected void channelInputClosed(ChannelHandlerContext ctx) {
			if (this.headers == null) {
				this.response.completeExceptionally(new IllegalStateException("Stream ended without a response"));
			}
			else {
				this.response.complete(new Response(this.headers, this.body.toByteArray()));
			}
			ctx.close();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			this.response.completeExceptionally(cause);
			ctx.close();
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			this.response.completeExceptionally(new IllegalStateException("Stream closed before its response ended"));
			ctx.fireChannelInactive();
		}

	}

}
