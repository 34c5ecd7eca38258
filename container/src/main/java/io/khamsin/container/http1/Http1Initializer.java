package io.khamsin.container.http1;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.util.concurrent.EventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.metrics.ReactorMetrics;

/**
 * Assembles the HTTP/1.1 pipeline of a new connection, in order: the byte counter (when figures are on), the codec
 * (which borrows a decoder and an encoder from its reactor's pool while a message passes), and the connection's
 * state machine, which hands each request to the Spring handler. A connection beyond {@code maxConnections} is
 * closed at once.
 */
public final class Http1ChannelInitializer extends ChannelInitializer<Channel> {

	/** The name of the request decoder and response encoder in the pipeline. */
	public static final String CODEC = "http1-codec";

	/** The protocol a connection it initializes speaks, by its ALPN name. */
	public static final String PROTOCOL = ApplicationProtocolNames.HTTP_1_1;

	private static final Logger logger = LoggerFactory.getLogger(Http1ChannelInitializer.class);

	private final ServerContext context;

	private final KhamsinServerConfig config;

	private final FixedResponses fixedResponses;

	private final NettyDataBufferFactory bufferFactory = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);

	private final HttpDecoderConfig decoderConfig;

	private final Map<EventExecutor, CodecPool> codecs = new ConcurrentHashMap<>();

	public Http1ChannelInitializer(ServerContext context) {
		this.context = context;
		this.config = context.config();
		this.fixedResponses = FixedResponses.encode(this.config.fixedResponses(), this.config.serverHeader());
		this.decoderConfig = new HttpDecoderConfig().setMaxInitialLineLength(this.config.maxInitialLineLength())
			.setMaxHeaderSize(this.config.maxHeaderSize());
	}

	/**
	 * Load and initialize the classes every connection uses, so that the first connection does not wait for them.
	 */
	public static void preload() {
		ClassLoader loader = Http1ChannelInitializer.class.getClassLoader();
		for (Class<?> type : new Class<?>[] { Http1ServerHandler.class, Http1ServerCodec.class, ServerResponses.class,
				FixedResponses.class, DateHeader.class, HttpDecoderConfig.class, CodecPool.class }) {
			try {
				Class.forName(type.getName(), true, loader);
			}
			catch (ClassNotFoundException ex) {
				throw new IllegalStateException(ex);
			}
		}
		DateHeader.now();
	}

	@Override
	protected void initChannel(Channel channel) {
		ReactorMetrics reactor = this.context.metrics().reactor(channel.eventLoop());
		if (!this.context.connections().admit(channel)) {
			reactor.connectionRefused();
			this.context.guards().increment(Guard.MAX_CONNECTIONS);
			logger.debug("Refusing {}: khamsin.max-connections ({}) reached or shutting down", channel,
					this.config.maxConnections());
			channel.config().setOption(ChannelOption.SO_LINGER, 0);
			channel.close();
			return;
		}
		CodecPool codecs = this.codecs.computeIfAbsent(channel.eventLoop(),
				(loop) -> new CodecPool(this.decoderConfig));
		Http1ServerHandler handler = new Http1ServerHandler(this.context, this.fixedResponses, this.bufferFactory,
				reactor.newConnection(Protocol.H1, this.context.accessLog()));
		Http1ServerCodec codec = new Http1ServerCodec(codecs, handler);
		handler.codec(codec);
		if (reactor.enabled()) {
			channel.pipeline().addLast("traffic", reactor.trafficCounter());
		}
		channel.pipeline().addLast(CODEC, codec);
		channel.pipeline().addLast("http1-handler", handler);
	}

}
