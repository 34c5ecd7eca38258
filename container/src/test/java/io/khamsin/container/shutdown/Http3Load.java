package io.khamsin.container.shutdown;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3GoAwayFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicConnectionCloseEvent;
import io.netty.handler.codec.quic.QuicException;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamResetException;
import io.netty.handler.codec.quic.QuicTransportError;
import io.netty.util.ReferenceCountUtil;

import io.khamsin.container.test.H3Client;

/**
 * HTTP/3 load with Netty's QUIC and HTTP/3 client codecs, a UDP socket per connection: each connection keeps a
 * number of request streams in flight, opening the next as one ends. A connection that hears GOAWAY opens no new
 * stream, and once it closes a new connection takes its place. A stream that ends without its response is
 * classified by the GOAWAY: at or above its stream id it was not processed (RFC 9114, section 5.2).
 */
final class Http3Load implements Load {

	/**
	 * The QUIC idle timeout, which also bounds a handshake nobody answers: a connection opened as the server stops
	 * hears nothing back (its UDP socket is closed, and QUIC over an unconnected socket does not hear ICMP).
	 */
	private static final long IDLE_TIMEOUT_MILLIS = 2_000;

	/** The request was rejected before any processing (RFC 9114, section 8.1). */
	private static final long H3_REQUEST_REJECTED = 0x10b;

	private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

	private final int port;

	private final QuicSslContext tls;

	private final int streams;

	private final Tally tally;

	private final AtomicLong ids;

	private volatile boolean stopped;

	Http3Load(int port, QuicSslContext tls, int connections, int streams, Tally tally, AtomicLong ids) {
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
		Channel socket = new Bootstrap().group(this.group)
			.channel(NioDatagramChannel.class)
			.handler(Http3.newQuicClientCodecBuilder()
				.sslContext(this.tls)
				.sslEngineProvider((quic) -> this.tls.newEngine(quic.alloc(), "localhost", this.port))
				.maxIdleTimeout(IDLE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
				.initialMaxData(16L * 1024 * 1024)
				.initialMaxStreamDataBidirectionalLocal(1024 * 1024)
				.initialMaxStreamDataBidirectionalRemote(1024 * 1024)
				.initialMaxStreamsBidirectional(1000)
				.build())
			.bind(0)
			.syncUninterruptibly()
			.channel();
		Connection connection = new Connection(socket);
		QuicChannel.newBootstrap(socket).handler(new ChannelInitializer<QuicChannel>() {
			@Override
			protected void initChannel(QuicChannel channel) {
				channel.pipeline()
					.addLast(new Http3ClientConnectionHandler(connection.control(), null, null, null, true), connection);
			}
		}).remoteAddress(new InetSocketAddress("127.0.0.1", this.port)).connect().addListener((future) -> {
			if (future.isSuccess()) {
				connection.start((QuicChannel) future.getNow());
				return;
			}
			// A connection the draining server closed during its handshake, or a handshake nobody answered: the
			// server is gone, and a client goes elsewhere.
			this.tally.refused(this.ids.incrementAndGet(), Outcome.REFUSED_CONNECTION);
			socket.close();
		});
	}

	/** One connection, on the load's event loop. */
	private final class Connection extends ChannelInboundHandlerAdapter {

		private final Channel socket;

		private QuicChannel channel;

		private long goAwayStreamId = -1;

		private int open;

		private boolean closedByPeer;

		private boolean refused;

		private QuicConnectionCloseEvent close;

		private boolean ended;

		Connection(Channel socket) {
			this.socket = socket;
		}

		/** @return the handler of the server's control stream, which hears its GOAWAY */
		ChannelInboundHandlerAdapter control() {
			return new ChannelInboundHandlerAdapter() {
				@Override
				public void channelRead(ChannelHandlerContext ctx, Object msg) {
					if (msg instanceof Http3GoAwayFrame goAway) {
						Connection.this.goAwayStreamId = goAway.id();
					}
					ReferenceCountUtil.release(msg);
				}
			};
		}

		void start(QuicChannel channel) {
			this.channel = channel;
			for (int i = 0; i < Http3Load.this.streams; i++) {
				send();
			}
		}

		private void send() {
			if (Http3Load.this.stopped || this.goAwayStreamId >= 0) {
				return;
			}
			if (!this.channel.isActive()) {
				Http3Load.this.tally.refused(Http3Load.this.ids.incrementAndGet(), Outcome.NOT_SENT);
				return;
			}
			Request request = new Request(this);
			this.open++;
			Http3.newRequestStream(this.channel, request).addListener((future) -> {
				if (!future.isSuccess()) {
					if (future.cause() instanceof QuicException quic && quic.error() == QuicTransportError.STREAM_LIMIT_ERROR) {
						// Not sent, so not counted: the server grants more streams as its open ones close.
						request.done = true;
						this.open--;
						this.channel.eventLoop().schedule(this::send, 5, TimeUnit.MILLISECONDS);
						return;
					}
					long id = request.take();
					request.end(() -> Http3Load.this.tally.refused(id, Outcome.NOT_SENT));
					return;
				}
				long id = request.take();
				QuicStreamChannel stream = (QuicStreamChannel) future.getNow();
				Http3HeadersFrame head = new DefaultHttp3HeadersFrame();
				head.headers().method("GET").path("/drill").authority("localhost:" + Http3Load.this.port).scheme("https");
				head.headers().set(DelayedResponder.ID, Long.toString(id));
				H3Client.endWithFirstWrite(stream);
				stream.writeAndFlush(head).addListener((written) -> {
					if (!written.isSuccess()) {
						request.end(() -> Http3Load.this.tally.refused(id, Outcome.NOT_SENT));
					}
				});
			});
		}

		void requestEnded() {
			this.open--;
			if (this.closedByPeer && this.open == 0) {
				end();
			}
			else {
				send();
			}
		}

		/**
		 * The connection is over for the load once the server closed it and every request has its outcome: the QUIC
		 * draining period that follows (RFC 9000, section 10.2.2) holds nothing the drill counts.
		 */
		private void end() {
			if (!this.ended) {
				this.ended = true;
				this.socket.close();
				this.socket.eventLoop().execute(Http3Load.this::connect);
			}
		}

		@Override
		public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
			if (event instanceof QuicConnectionCloseEvent close) {
				this.closedByPeer = true;
				this.close = close;
				this.refused = !close.isApplicationClose()
						&& close.error() == QuicTransportError.CONNECTION_REFUSED.code();
				if (this.open == 0) {
					end();
				}
			}
			ctx.fireUserEventTriggered(event);
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			end();
			ctx.fireChannelInactive();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

	/** One request on its own stream. */
	private final class Request extends Http3RequestStreamInboundHandler {

		private final Connection connection;

		private final ByteArrayOutputStream body = new ByteArrayOutputStream();

		private long id;

		private int status = -1;

		private boolean done;

		private Throwable error;

		Request(Connection connection) {
			this.connection = connection;
		}

		/** @return the request's id, taken once its stream is open: a stream the server does not grant yet is none */
		long take() {
			this.id = Http3Load.this.ids.incrementAndGet();
			return this.id;
		}

		void end(Runnable outcome) {
			if (!this.done) {
				this.done = true;
				outcome.run();
				this.connection.requestEnded();
			}
		}

		@Override
		protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
			CharSequence status = frame.headers().status();
			if (this.status < 0 && status != null && status.charAt(0) != '1') {
				this.status = Integer.parseInt(status.toString());
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
			byte[] body = this.body.toByteArray();
			if (this.status == 200 && Arrays.equals(body, DelayedResponder.body(this.id))) {
				end(Http3Load.this.tally::completed);
			}
			else if (this.status < 0) {
				unanswered(ctx, "its stream's input ended");
			}
			else {
				end(() -> Http3Load.this.tally.failed(this.id, "status " + this.status + ", " + body.length
						+ " body bytes on stream " + streamId(ctx)));
			}
			ctx.close();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			this.error = cause;
			ctx.close();
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			unanswered(ctx, "its stream closed");
			ctx.fireChannelInactive();
		}

		private void unanswered(ChannelHandlerContext ctx, String how) {
			long stream = streamId(ctx);
			long goAway = this.connection.goAwayStreamId;
			if (goAway >= 0 && stream >= goAway) {
				end(() -> Http3Load.this.tally.refused(this.id, Outcome.ABOVE_GOAWAY));
			}
			else if (this.error instanceof QuicStreamResetException reset
					&& reset.applicationProtocolCode() == H3_REQUEST_REJECTED) {
				// Rejected before any processing (RFC 9114, section 8.1): a stream above a GOAWAY still on its way.
				end(() -> Http3Load.this.tally.refused(this.id, Outcome.REFUSED_STREAM));
			}
			else if (this.connection.refused) {
				// The server refused the connection (CONNECTION_REFUSED) after the client took its handshake for done.
				end(() -> Http3Load.this.tally.refused(this.id, Outcome.REFUSED_CONNECTION));
			}
			else {
				end(() -> Http3Load.this.tally.failed(this.id, how + " without its whole response on stream " + stream
						+ ((goAway >= 0) ? " (GOAWAY " + goAway + ")" : " (no GOAWAY)") + ", status " + this.status
						+ ", " + this.body.size() + " body bytes" + ((this.error != null) ? ", " + this.error : "")
						+ ((this.connection.close != null) ? ", " + this.connection.close : ", no CONNECTION_CLOSE")));
			}
		}

		private static long streamId(ChannelHandlerContext ctx) {
			return ((QuicStreamChannel) ctx.channel()).streamId();
		}

	}

}
