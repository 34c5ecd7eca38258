package io.khamsin.benchmark.refserver;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

import io.khamsin.benchmark.target.Payloads;

/**
 * The {@code netty-raw} target: a minimal Netty 4.2 epoll HTTP/1.1 server that answers the scenario routes
 * directly ({@code GET /plaintext}, {@code POST /json} answering the order's confirmation as fixed bytes, {@code GET /files/*} by sendfile), with
 * one event loop per available processor. Responses are written in {@code channelRead} and flushed once per read
 * batch. Usage: {@code NettyRawServer <port> <files dir>}.
 */
public final class NettyRawServer {

	private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] CONFIRMATION = Payloads.confirmation1k();

	private NettyRawServer() {
	}

	public static void main(String[] args) throws Exception {
		int port = Integer.parseInt(args[0]);
		File files = new File(args[1]);
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
				EpollIoHandler.newFactory());
		Channel listener = new ServerBootstrap().group(group)
			.channel(EpollServerSocketChannel.class)
			.option(ChannelOption.SO_BACKLOG, 1024)
			.childOption(ChannelOption.TCP_NODELAY, true)
			.childHandler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					channel.pipeline()
						.addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Handler(files));
				}
			})
			.bind("127.0.0.1", port)
			.sync()
			.channel();
		System.out.println("netty-raw listening on " + listener.localAddress());
		listener.closeFuture().sync();
	}

	private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {

		private final File files;

		Handler(File files) {
			this.files = files;
		}

		@Override
		protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws Exception {
			boolean keepAlive = HttpUtil.isKeepAlive(request);
			String uri = request.uri();
			if (uri.equals("/plaintext") && request.method().equals(HttpMethod.GET)) {
				write(ctx, full(Unpooled.wrappedBuffer(HELLO), "text/plain"), keepAlive);
			}
			else if (uri.equals("/json") && request.method().equals(HttpMethod.POST)) {
				write(ctx, full(Unpooled.wrappedBuffer(CONFIRMATION), "application/json"), keepAlive);
			}
			else if (uri.startsWith("/files/") && !uri.contains("..") && request.method().equals(HttpMethod.GET)) {
				File file = new File(this.files, uri.substring("/files/".length()));
				if (!file.isFile()) {
					write(ctx, notFound(), keepAlive);
					return;
				}
				RandomAccessFile raf = new RandomAccessFile(file, "r");
				HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
				response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream");
				HttpUtil.setContentLength(response, raf.length());
				HttpUtil.setKeepAlive(response, keepAlive);
				ctx.write(response);
				ctx.write(new DefaultFileRegion(raf.getChannel(), 0, raf.length()));
				if (keepAlive) {
					ctx.write(LastHttpContent.EMPTY_LAST_CONTENT);
				}
				else {
					ctx.write(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
				}
			}
			else {
				write(ctx, notFound(), keepAlive);
			}
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext ctx) {
			ctx.flush();
		}

		private static FullHttpResponse full(ByteBuf body, String contentType) {
			FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
					body);
			response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
			HttpUtil.setContentLength(response, body.readableBytes());
			return response;
		}

		private static FullHttpResponse notFound() {
			FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
					HttpResponseStatus.NOT_FOUND, Unpooled.EMPTY_BUFFER);
			HttpUtil.setContentLength(response, 0);
			return response;
		}

		private static void write(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
			if (keepAlive) {
				ctx.write(response);
			}
			else {
				response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
				ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
			}
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

}
