package io.khamsin.container.test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.TlsFigures;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsContexts;
import io.khamsin.container.tls.TlsHandlers;
import io.khamsin.container.tls.TlsSessionInfo;

/**
 * A minimal real server for TLS tests: a Netty listener on loopback, whose reactors rotate the session ticket keys as
 * a server's do, with {@link TlsHandlers} in front of Netty's
 * HTTP/1.1 codec and a responder whose body tells what the connection negotiated, one {@code name=value} a line:
 * {@code protocol}, {@code cipher}, {@code alpn}, {@code certificate} (the subject the server presented),
 * {@code peer} (the client certificate's subject from {@link SslInfo}, or {@code none}) and {@code session}.
 */
public final class TlsTestServer implements AutoCloseable {

	private final EventLoopGroup group;

	private final Channel listener;

	private final TlsHandlers handlers;

	private TlsTestServer(TlsHandlers handlers) {
		this.handlers = handlers;
		this.group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
		this.listener = new ServerBootstrap().group(this.group)
			.channel(NioServerSocketChannel.class)
			.childHandler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					channel.pipeline().addLast(TlsHandlers.DETECTOR, handlers.newHandler(channel));
					channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Responder());
				}
			})
			.bind(InetAddress.getLoopbackAddress(), 0)
			.syncUninterruptibly()
			.channel();
		handlers.contexts().startTicketKeyRotation(this.group.next());
	}

	/**
	 * Start a server for a configuration.
	 * @param config the configuration
	 * @return the started server
	 */
	public static TlsTestServer start(TlsConfig config) {
		return new TlsTestServer(new TlsHandlers(TlsContexts.build(config), TlsFigures.create()));
	}

	/**
	 * Start a server on contexts already built.
	 * @param contexts the contexts
	 * @return the started server
	 */
	public static TlsTestServer start(TlsContexts contexts) {
		return new TlsTestServer(new TlsHandlers(contexts, TlsFigures.create()));
	}

	/** @return the port on loopback */
	public int port() {
		return ((InetSocketAddress) this.listener.localAddress()).getPort();
	}

	/** @return the contexts served */
	public TlsContexts contexts() {
		return this.handlers.contexts();
	}

	/** @return the guard events, such as handshakes closed at the handshake timeout */
	public GuardCounters guards() {
		return this.handlers.guards();
	}

	/** @return the handshake figures */
	public TlsFigures figures() {
		return this.handlers.figures();
	}

	@Override
	public void close() {
		this.listener.close().syncUninterruptibly();
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
	}

	private static final class Responder extends SimpleChannelInboundHandler<FullHttpRequest> {

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
			SslHandler tls = ctx.pipeline().get(SslHandler.class);
			StringBuilder body = new StringBuilder();
			body.append("protocol=").append(tls.engine().getSession().getProtocol()).append('\n');
			body.append("cipher=").append(tls.engine().getSession().getCipherSuite()).append('\n');
			body.append("alpn=").append(tls.applicationProtocol()).append('\n');
			X509Certificate[] local = (X509Certificate[]) tls.engine().getSession().getLocalCertificates();
			body.append("certificate=").append(local[0].getSubjectX500Principal().getName()).append('\n');
			SslInfo info = TlsSessionInfo.of(ctx.channel());
			X509Certificate[] peer = info.getPeerCertificates();
			body.append("peer=").append((peer != null) ? peer[0].getSubjectX500Principal().getName() : "none").append('\n');
			body.append("session=").append(info.getSessionId()).append('\n');
			body.append("request=").append(request.method()).append(' ').append(request.uri()).append(' ')
				.append(request.content().readableBytes()).append('\n');
			FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
					Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
			response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
			HttpUtil.setContentLength(response, response.content().readableBytes());
			boolean keepAlive = HttpUtil.isKeepAlive(request);
			HttpUtil.setKeepAlive(response, keepAlive);
			if (keepAlive) {
				ctx.writeAndFlush(response);
			}
			else {
				ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
			}
		}

	}

}
