package io.khamsin.container.http2;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.handler.codec.http2.InboundHttpToHttp2Adapter;
import io.netty.handler.ssl.ApplicationProtocolNames;

import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.transport.ConnectionSecurity;
import io.khamsin.container.transport.ProtocolInitializer;
import io.khamsin.container.transport.ReadPacing;
import io.khamsin.container.transport.WriteCoalescing;

/**
 * Sets up the HTTP/2 pipeline of a connection once the transport has chosen HTTP/2 for it (ALPN {@code h2}, or on a
 * plain listener the client's preface or an {@code Upgrade: h2c}): Netty's frame codec with khamsin's settings and
 * abuse limits ({@link ServerFrameCodec}), the multiplexer that gives each stream a channel of its own whose
 * {@link Http2StreamHandler} carries the stream's exchange to the server's {@link ExchangeDispatcher}, and the
 * connection's own handler ({@link Http2ServerConnection}). The fixed responses are built as HTTP/2 header blocks
 * once, here.
 */
public final class Http2Initializer implements ProtocolInitializer {

	/** The protocol it sets up, by its ALPN name. */
	public static final String PROTOCOL = ApplicationProtocolNames.HTTP_2;

	/** HTTP/2 over cleartext TCP, by its name in {@code Upgrade} (RFC 7540, section 3.2). */
	public static final String CLEARTEXT = "h2c";

	/** The name of the frame codec in the pipeline. */
	public static final String CODEC = "h2-codec";

	/** The name of the stream multiplexer in the pipeline. */
	public static final String STREAMS = "h2-streams";

	/** The name of the connection's handler in the pipeline. */
	public static final String CONNECTION = "h2-connection";

	private static final int UPGRADE_STREAM_ID = 1;

	private final ServerContext context;

	private final ExchangeDispatcher dispatcher;

	private final Http2Config config;

	private final Http2Settings settings;

	private final Http2FixedResponses fixedResponses;

	/**
	 * Create the HTTP/2 initializer of a server.
	 * @param context what the server's connections share: the limits and deadlines of every protocol among them
	 * @param config the HTTP/2 settings and abuse limits
	 * @param dispatcher the server's exchange stage
	 */
	public Http2Initializer(ServerContext context, Http2Config config, ExchangeDispatcher dispatcher) {
		this.context = context;
		this.dispatcher = dispatcher;
		this.config = config;
		this.settings = ServerFrameCodec.settings(this.config);
		this.fixedResponses = Http2FixedResponses.encode(dispatcher.fixedResponses());
	}

	@Override
	public String protocol() {
		return PROTOCOL;
	}

	@Override
	public void initialize(Channel channel, ConnectionSecurity security) {
		install(channel, security);
	}

	/**
	 * Take a plain connection to HTTP/2 after its {@code 101 Switching Protocols} (RFC 7540, section 3.2): the
	 * client's settings of {@code HTTP2-Settings} apply, and its request becomes stream 1, half-closed.
	 * @param channel the connection, its HTTP/1.1 handlers gone
	 * @param clientSettings the client's settings
	 * @param request the request that asked for the upgrade, without a body; released here
	 * @throws Exception if the codec refuses the upgrade or the request
	 */
	void upgrade(Channel channel, Http2Settings clientSettings, FullHttpRequest request) throws Exception {
		ServerFrameCodec codec;
		try {
			codec = install(channel, ConnectionSecurity.PLAIN);
			codec.onHttpServerUpgrade(clientSettings);
		}
		catch (Http2Exception | RuntimeException ex) {
			request.release();
			throw ex;
		}
		request.headers().setInt(HttpConversionUtil.ExtensionHeaderNames.STREAM_ID.text(), UPGRADE_STREAM_ID);
		// Read as the codec reads a HEADERS frame: stream 1's channel gets the request as its own.
		new InboundHttpToHttp2Adapter(codec.connection(), codec.decoder().frameListener())
			.channelRead(channel.pipeline().context(codec), request);
	}

	private ServerFrameCodec install(Channel channel, ConnectionSecurity security) {
		HttpSettings settings = this.context.settings();
		ReactorMetrics reactor = this.context.metrics().reactor(channel.eventLoop());
		ServerFrameCodec codec = ServerFrameCodec.create(this.config, this.settings,
				new ConnectionGuards(this.context.guards(), this.config, channel), reactor);
		Http2ServerConnection connection = new Http2ServerConnection(settings, this.config, security, codec, reactor,
				this.context.guards());
		Http2Streams streams = new Http2Streams(connection, this.dispatcher, this.fixedResponses, settings,
				this.context.guards());
		// Both only on io_uring, where Netty's reactor needs them for a connection of many streams.
		ReadPacing.install(channel);
		WriteCoalescing.install(channel);
		ChannelPipeline pipeline = channel.pipeline();
		pipeline.addLast(CODEC, codec).addLast(STREAMS, new Http2MultiplexHandler(streams)).addLast(CONNECTION, connection);
		return codec;
	}

}
