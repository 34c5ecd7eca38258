package io.khamsin.container.shutdown;

import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;

/**
 * HTTP/2 load with Netty's client codec, over TLS (ALPN {@code h2}) or h2c with prior knowledge: each connection
 * keeps a number of streams in flight, opening the next as one ends. A connection that hears GOAWAY opens no new
 * stream; once it closes, a new connection takes its place. A stream that ends without its response is classified
 * by the GOAWAY: above its last stream id it was not processed (RFC 9113, section 6.8), at or below it failed.
 */
final class Http2Load implements Load {

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final int port;

	private final SslContext tls;

	private final int streams;

	private final Tally tally;

	private final AtomicLong ids;

	private volatile boolean stopped;

	Http2Load(int port, SslContext tls, int connections, int streams, Tally tally, AtomicLong ids) {
		this.port = port;
		this.tls = tls;
		this.streams = streams;
		this.tally = tally;
		this.ids = ids;
		for (int i = 0; i < connections; i++) {
			connect();
		}
	}

	@Override
	public void stopSending() {
		this.stopped = true;
	}

	@Override
	public void close() {
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
	}

	/** Open a connection for one slot of the load; the slot ends when a connection is refused or the load stops. */
	private void connect() {
		if (this.stopped) {
			return;
		}
		Connection connection = new Connection();
		ChannelFuture connected = new Bootstrap().group(this.group)
			.channel(NioSocketChannel.class)
			.handler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					if (Http2Load.this.tls != null) {
						channel.pipeline().addLast(Http2Load.this.tls.newHandler(channel.alloc(), "localhost", Http2Load.this.port));
					}
					channel.pipeline()
						.addLast(Http2FrameCodecBuilder.forClient().build(),
								new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()), connection);
				}
			})
			.connect(InetAddress.getLoopbackAddress(), this.port);
		connected.addListener((future) -> {
			if (future.isSuccess()) {
				connection.start(connected.channel());
				return;
			}
			long id = this.ids.incrementAndGet();
			if (future.cause() instanceof ConnectException) {
				this.tally.refused(id, Outcome.REFUSED_CONNECTION);
			}
			else {
				this.tally.failed(id, "connect: " + future.cause());
			}
		});
	}

	/** One connection, on the load's event loop. */
	private final class Connection extends ChannelInboundHandlerAdapter {

		private Channel channel;

		private int open;

		private int goAwayLastStreamId = -1;

		void start(Channel channel) {
			this.channel = channel;
			for (int i = 0; i < Http2Load.this.streams; i++) {
				send();
			}
		}

		private void send() {
			if (Http2Load.this.stopped || this.goAwayLastStreamId >= 0) {
				return;
			}
			long id = Http2Load.this.ids.incrementAndGet();
			if (!this.channel.isActive()) {
				Http2Load.this.tally.refused(id, Outcome.NOT_SENT);
				return;
			}
			this.open++;
			Request request = new Request(id, this);
			new Http2StreamChannelBootstrap(this.channel).handler(request).open().addListener((future) -> {
				if (!future.isSuccess()) {
					request.notSent();
					return;
				}
				Http2StreamChannel stream = (Http2StreamChannel) future.getNow();
				Http2Headers headers = new DefaultHttp2Headers().method("GET")
					.path("/drill")
					.scheme((Http2Load.this.tls != null) ? "https" : "http")
					.authority("localhost:" + Http2Load.this.port);
				headers.set(DelayedResponder.ID, Long.toString(id));
				stream.writeAndFlush(new DefaultHttp2HeadersFrame(headers, true)).addListener((written) -> {
					if (!written.isSuccess()) {
						request.notSent();
					}
				});
			});
		}

		void ended() {
			this.open--;
			send();
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			if (msg instanceof Http2GoAwayFrame goAway) {
				this.goAwayLastStreamId = goAway.lastStreamId();
				if (goAway.errorCode() != Http2Error.NO_ERROR.code()) {
					Http2Load.this.tally.failed(-1, "GOAWAY " + goAway.errorCode() + " on " + ctx.channel());
				}
			}
			ReferenceCountUtil.release(msg);
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			// A new connection in this one's place, once its streams have had their outcomes.
			ctx.channel().eventLoop().execute(Http2Load.this::connect);
			ctx.fireChannelInactive();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

	/** One request on its own stream. */
	private final class Request extends ChannelInboundHandlerAdapter {

		private final long id;

		private final Connection connection;

		private final ByteArrayOutputStream body = new ByteArrayOutputStream();

		private int status = -1;

		private boolean done;

		Request(long id, Connection connection) {
			this.id = id;
			this.connection = connection;
		}

		void notSent() {
			end(() -> Http2Load.this.tally.refused(this.id, Outcome.NOT_SENT));
		}

		private void end(Runnable outcome) {
			if (!this.done) {
				this.done = true;
				outcome.run();
				this.connection.ended();
			}
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			try {
				if (msg instanceof Http2HeadersFrame headers) {
					if (this.status < 0) {
						this.status = headers.headers().getInt(Http2Headers.PseudoHeaderName.STATUS.value(), 0);
					}
					if (headers.isEndStream()) {
						answered(ctx);
					}
				}
				else if (msg instanceof Http2DataFrame data) {
					ByteBuf content = data.content();
					content.readBytes(this.body, content.readableBytes());
					if (data.isEndStream()) {
						answered(ctx);
					}
				}
				else if (msg instanceof Http2ResetFrame reset) {
					if (reset.errorCode() == Http2Error.REFUSED_STREAM.code()) {
						end(() -> Http2Load.this.tally.refused(this.id, Outcome.REFUSED_STREAM));
					}
					else {
						end(() -> Http2Load.this.tally.failed(this.id, "RST_STREAM " + reset.errorCode() + " on stream "
								+ streamId(ctx)));
					}
				}
			}
			catch (java.io.IOException ex) {
				throw new IllegalStateException(ex);
			}
			finally {
				ReferenceCountUtil.release(msg);
			}
		}

		private void answered(ChannelHandlerContext ctx) {
			byte[] body = this.body.toByteArray();
			if (this.status == 200 && Arrays.equals(body, DelayedResponder.body(this.id))) {
				end(Http2Load.this.tally::completed);
			}
			else {
				end(() -> Http2Load.this.tally.failed(this.id, "status " + this.status + ", " + body.length
						+ " body bytes on stream " + streamId(ctx)));
			}
			ctx.close();
		}

		@Override
		public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
			if (event instanceof Http2GoAwayFrame goAway) {
				// The multiplexer tells each stream above the GOAWAY's last stream id, which the server did not take.
				this.connection.goAwayLastStreamId = goAway.lastStreamId();
			}
			ReferenceCountUtil.release(event);
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			int stream = streamId(ctx);
			int last = this.connection.goAwayLastStreamId;
			if (stream <= 0) {
				end(() -> Http2Load.this.tally.refused(this.id, Outcome.NOT_SENT));
			}
			else if (last >= 0 && stream > last) {
				end(() -> Http2Load.this.tally.refused(this.id, Outcome.ABOVE_GOAWAY));
			}
			else {
				end(() -> Http2Load.this.tally.failed(this.id, "stream " + stream + " closed without its whole response"
						+ ((last >= 0) ? " (GOAWAY last stream " + last + ")" : " (no GOAWAY)") + ", status "
						+ this.status + ", " + this.body.size() + " body bytes, connection " + ctx.channel().parent()));
			}
			ctx.fireChannelInactive();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

		private static int streamId(ChannelHandlerContext ctx) {
			return ((Http2StreamChannel) ctx.channel()).stream().id();
		}

	}

}
