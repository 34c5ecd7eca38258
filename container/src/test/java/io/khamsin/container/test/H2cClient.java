package io.khamsin.container.test;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.ReferenceCountUtil;

/**
 * An HTTP/2 client with prior knowledge (h2c) built on Netty's client codec, for tests that need what the JDK's
 * client does not give: several streams on one connection under the test's control, a stream whose response is not
 * read (no WINDOW_UPDATE returns its window), a request body written as fast as flow control lets it, and the GOAWAY
 * the server sends. Its buffers are unpooled, so that the pooled allocator's figures are the server's alone.
 */
public final class H2cClient implements AutoCloseable {

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final Channel connection;

	private final CompletableFuture<Http2GoAwayFrame> goAway = new CompletableFuture<>();

	private volatile int goAwayLastStreamId = -1;

	/** The client's connection window: large, as browsers and curl make theirs, so that one unread stream stalls no other. */
	private static final int CONNECTION_WINDOW = 16 * 1024 * 1024;

	private H2cClient(int port) {
		this.connection = new Bootstrap().group(this.group)
			.channel(NioSocketChannel.class)
			.option(ChannelOption.ALLOCATOR, UnpooledByteBufAllocator.DEFAULT)
			.handler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					channel.pipeline()
						.addLast(Http2FrameCodecBuilder.forClient().build(),
								new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()),
								new ChannelInboundHandlerAdapter() {
									@Override
									public void channelRead(ChannelHandlerContext ctx, Object msg) {
										if (msg instanceof Http2GoAwayFrame frame) {
											// A duplicate of a GOAWAY frame forgets its last stream id: keep it apart.
											H2cClient.this.goAwayLastStreamId = frame.lastStreamId();
											H2cClient.this.goAway.complete(frame.retainedDuplicate());
										}
										ReferenceCountUtil.release(msg);
									}

									@Override
									public void channelInactive(ChannelHandlerContext ctx) {
										H2cClient.this.goAway.complete(null);
										ctx.fireChannelInactive();
									}
								});
				}
			})
			.connect(InetAddress.getLoopbackAddress(), port)
			.syncUninterruptibly()
			.channel();
		this.connection.writeAndFlush(new DefaultHttp2WindowUpdateFrame(CONNECTION_WINDOW - 65_535)).syncUninterruptibly();
	}

	/**
	 * Connect to a server on the loopback address.
	 * @param port its port
	 * @return the client, its preface sent
	 */
	public static H2cClient connect(int port) {
		return new H2cClient(port);
	}

	/** @return the connection */
	public Channel connection() {
		return this.connection;
	}

	/** @return the last stream id of the server's GOAWAY, {@code -1} before one arrived */
	public int goAwayLastStreamId() {
		return this.goAwayLastStreamId;
	}

	/**
	 * @return completes with the server's GOAWAY (retained), or {@code null} if the connection closed without one; its
	 * {@code lastStreamId()} is lost in the copy, see {@link #goAwayLastStreamId()}
	 */
	public CompletableFuture<Http2GoAwayFrame> goAway() {
		return this.goAway;
	}

	/**
	 * Send a request with an optional body on a new stream, reading its response as it comes.
	 * @param method the method
	 * @param path the path
	 * @param body the body, or {@code null} for none
	 * @return the stream
	 */
	public Stream send(String method, String path, byte[] body) {
		Stream stream = open(true);
		stream.sendHeaders(method, path, body == null);
		if (body != null) {
			stream.sendData(io.netty.buffer.Unpooled.wrappedBuffer(body), true);
		}
		return stream;
	}

	/**
	 * Open a stream.
	 * @param read whether its response is read as it arrives; a stream not read returns no window to the server
	 * @return the stream, on which nothing was sent yet
	 */
	public Stream open(boolean read) {
		Stream stream = new Stream();
		Http2StreamChannel channel = new Http2StreamChannelBootstrap(this.connection).option(ChannelOption.AUTO_READ, read)
			.handler(stream)
			.open()
			.syncUninterruptibly()
			.getNow();
		stream.channel = channel;
		return stream;
	}

	@Override
	public void close() {
		this.connection.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
		Http2GoAwayFrame frame = this.goAway.getNow(null);
		if (frame != null) {
			frame.release();
		}
	}

	/**
	 * One stream of the connection and what its response has been so far.
	 */
	public static final class Stream extends ChannelInboundHandlerAdapter {

		private final CompletableFuture<Response> response = new CompletableFuture<>();

		private final ByteArrayOutputStream body = new ByteArrayOutputStream();

		private volatile Http2Headers headers;

		private volatile long bytesReceived;

		private volatile Runnable onWritable;

		private Http2StreamChannel channel;

		/** @return the stream's channel */
		public Http2StreamChannel channel() {
			return this.channel;
		}

		/** @return completes with the whole response, or exceptionally when the stream is reset or closed first */
		public CompletableFuture<Response> response() {
			return this.response;
		}

		/** @return the bytes of the response body received so far */
		public long bytesReceived() {
			return this.bytesReceived;
		}

		/**
		 * Send the request head.
		 * @param method the method
		 * @param path the path
		 * @param endStream whether the request ends with it
		 */
		public void sendHeaders(String method, String path, boolean endStream) {
			Http2Headers head = new DefaultHttp2Headers().method(method).path(path).scheme("http").authority("localhost");
			this.channel.writeAndFlush(new DefaultHttp2HeadersFrame(head, endStream));
		}

		/**
		 * Send part of the request body.
		 * @param data the bytes
		 * @param endStream whether the request ends with them
		 */
		public void sendData(ByteBuf data, boolean endStream) {
			this.channel.writeAndFlush(new DefaultHttp2DataFrame(data, endStream));
		}

		/**
		 * Send a request body from a source, as fast as the stream's writability lets it, on the stream's event loop.
		 * @param next writes the next part with {@link #sendData}, or ends the body; called while writable
		 */
		public void sendBody(Consumer<Stream> next) {
			this.onWritable = () -> {
				while (this.channel.isWritable() && this.onWritable != null) {
					next.accept(this);
				}
			};
			this.channel.eventLoop().execute(this.onWritable);
		}

		/** The body source is done: stop asking it. */
		public void bodySent() {
			this.onWritable = null;
		}

		/** Start reading a stream opened without reading. */
		public void read() {
			this.channel.eventLoop().execute(() -> {
				this.channel.config().setAutoRead(true);
				this.channel.read();
			});
		}

		@Override
		public void channelWritabilityChanged(ChannelHandlerContext ctx) {
			Runnable onWritable = this.onWritable;
			if (onWritable != null && ctx.channel().isWritable()) {
				onWritable.run();
			}
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			try {
				if (msg instanceof Http2HeadersFrame frame) {
					if (this.headers == null || this.headers.status().charAt(0) == '1') {
						this.headers = frame.headers();
					}
					if (frame.isEndStream()) {
						complete();
					}
				}
				else if (msg instanceof Http2DataFrame frame) {
					ByteBuf content = frame.content();
					this.bytesReceived += content.readableBytes();
					content.readBytes(this.body, content.readableBytes());
					if (frame.isEndStream()) {
						complete();
					}
				}
			}
			catch (java.io.IOException ex) {
				this.response.completeExceptionally(ex);
			}
			finally {
				ReferenceCountUtil.release(msg);
			}
		}

		@Override
		public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
			// Netty's multiplexer hands RST_STREAM to the stream as an event: it is not flow-controlled, so it must
			// not wait for a read.
			if (event instanceof Http2ResetFrame reset) {
				this.response.completeExceptionally(new IllegalStateException("Stream reset: " + reset.errorCode()));
			}
			ctx.fireUserEventTriggered(event);
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			this.response.completeExceptionally(new IllegalStateException("Stream closed before its response ended"));
			ctx.fireChannelInactive();
		}

		private void complete() {
			this.response.complete(new Response(Integer.parseInt(this.headers.status().toString()), this.headers,
					this.body.toByteArray()));
		}

	}

	/**
	 * A whole response.
	 *
	 * @param status its status
	 * @param headers its header block
	 * @param body its body
	 */
	public record Response(int status, Http2Headers headers, byte[] body) {

		/** @return the body as UTF-8 text */
		public String text() {
			return new String(this.body, java.nio.charset.StandardCharsets.UTF_8);
		}

	}

}
