package io.khamsin.container.http2.conformance;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolConfig.Protocol;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectedListenerFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolConfig.SelectorFailureBehavior;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import io.khamsin.container.test.TestCertificates;

/**
 * Netty 4.2's HTTP/2 server codec configured as a production server should be, with {@link ReferenceStreamHandler}
 * on each stream: the settings that make the catalogue pass on Netty, and by the cases it cannot pass, what
 * khamsin's own HTTP/2 handler must add.
 */
final class NettyReferenceTarget implements ConformanceTarget {

	static final int MAX_CONCURRENT_STREAMS = 100;

	static final int MAX_HEADER_LIST_SIZE = 8192;

	static final int INITIAL_WINDOW_SIZE = 65_535;

	static final int MAX_FRAME_SIZE = 16_384;

	/**
	 * The accepted sockets' send buffer. The floods of SETTINGS and PING end when the answers the attacker does not
	 * read back up into the server; with the kernel's 4 MB that takes some 450,000 frames, which the leak detector
	 * at PARANOID (a stack trace per buffer operation, some 15,000 frames a second here) turns into half a minute.
	 * 16 KB brings it to a few thousand.
	 */
	static final int SEND_BUFFER = 16 * 1024;

	private final boolean tls;

	private EventLoopGroup group;

	private Channel listener;

	private NettyReferenceTarget(boolean tls) {
		this.tls = tls;
	}

	/** @return the reference on h2c with prior knowledge */
	static NettyReferenceTarget h2c() {
		return new NettyReferenceTarget(false);
	}

	/** @return the reference on h2 over TLS, ALPN offering {@code h2} alone */
	static NettyReferenceTarget h2() {
		return new NettyReferenceTarget(true);
	}

	@Override
	public String name() {
		return this.tls ? "netty-reference-tls" : "netty-reference";
	}

	@Override
	public boolean runsByDefault() {
		// The catalogue over TLS takes as long again; H2ConnectionOverTlsTests keeps the client's TLS path tested.
		return !this.tls;
	}

	@Override
	public Set<Capability> capabilities() {
		return EnumSet.noneOf(Capability.class);
	}

	/**
	 * The codec for one connection, with every protection Netty 4.2 offers switched on. All but
	 * {@code validateRequiredPseudoHeaders} are Netty 4.2.18's server defaults (the catalogue passes as well on
	 * {@code forServer().validateRequiredPseudoHeaders(true).build()}); they are written out so that a new Netty
	 * cannot loosen them unseen, and because they are the values khamsin's {@code khamsin.http2.*} settings set.
	 */
	static Http2FrameCodec codec() {
		Http2Settings settings = Http2Settings.defaultSettings()
			.maxConcurrentStreams(MAX_CONCURRENT_STREAMS)
			.maxHeaderListSize(MAX_HEADER_LIST_SIZE)
			.initialWindowSize(INITIAL_WINDOW_SIZE)
			.maxFrameSize(MAX_FRAME_SIZE);
		return Http2FrameCodecBuilder.forServer()
			.initialSettings(settings)
			.validateHeaders(true)
			.validateRequiredPseudoHeaders(true)
			.decoderEnforceMaxRstFramesPerWindow(200, 30)
			.encoderEnforceMaxRstFramesPerWindow(200, 30)
			.decoderEnforceMaxConsecutiveEmptyDataFrames(2)
			.encoderEnforceMaxQueuedControlFrames(10_000)
			.decoderEnforceMaxSmallContinuationFrames(16)
			.build();
	}

	@Override
	public Endpoint start() throws SSLException {
		SslContext sslContext = this.tls ? serverContext() : null;
		this.group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
		this.listener = new ServerBootstrap().group(this.group)
			.channel(NioServerSocketChannel.class)
			.childOption(ChannelOption.SO_SNDBUF, SEND_BUFFER)
			.childHandler(new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					if (sslContext != null) {
						channel.pipeline().addLast(sslContext.newHandler(channel.alloc()));
					}
					channel.pipeline()
						.addLast(codec(), new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
							@Override
							protected void initChannel(Http2StreamChannel stream) {
								stream.pipeline().addLast(new ReferenceStreamHandler());
							}
						}), ConnectionFrameSink.INSTANCE);
				}
			})
			.bind(InetAddress.getLoopbackAddress(), 0)
			.syncUninterruptibly()
			.channel();
		int port = ((InetSocketAddress) this.listener.localAddress()).getPort();
		String host = InetAddress.getLoopbackAddress().getHostAddress();
		return this.tls ? Endpoint.h2(host, port) : Endpoint.h2c(host, port);
	}

	private static SslContext serverContext() throws SSLException {
		TestCertificates.Issued issued = TestCertificates.create().server("localhost", "127.0.0.1");
		return SslContextBuilder.forServer(issued.key(), issued.chain())
			.sslProvider(SslProvider.JDK)
			.applicationProtocolConfig(new ApplicationProtocolConfig(Protocol.ALPN,
					SelectorFailureBehavior.NO_ADVERTISE, SelectedListenerFailureBehavior.ACCEPT,
					ApplicationProtocolNames.HTTP_2))
			.build();
	}

	@Override
	public void close() {
		if (this.listener != null) {
			this.listener.close().syncUninterruptibly();
			this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
		}
	}

}
