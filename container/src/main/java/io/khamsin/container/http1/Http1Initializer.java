package io.khamsin.container.http1;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.util.concurrent.EventExecutor;

import io.khamsin.container.engine.DateHeader;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.transport.ConnectionSecurity;
import io.khamsin.container.transport.ProtocolInitializer;

/**
 * Sets up the HTTP/1.1 pipeline of a connection once the transport has chosen HTTP/1.1 for it: the codec (which
 * borrows a decoder and an encoder from its reactor's pool while a message passes), then the connection's state
 * machine, which hands each request to the server's {@link ExchangeDispatcher}. Admission, the byte counter and the
 * choice of the protocol are the transport's ({@code ConnectionInitializer}); the fixed responses are encoded as
 * HTTP/1.1 once, here.
 */
public final class Http1Initializer implements ProtocolInitializer {

	/** The name of the request decoder and response encoder in the pipeline. */
	public static final String CODEC = "http1-codec";

	/** The name of the connection's state machine in the pipeline. */
	public static final String HANDLER = "http1-handler";

	/** The protocol it sets up, by its ALPN name. */
	public static final String PROTOCOL = ApplicationProtocolNames.HTTP_1_1;

	private final ServerContext context;

	private final ExchangeDispatcher dispatcher;

	private final Http1FixedResponses fixedResponses;

	private final HttpDecoderConfig decoderConfig;

	private final ConnectionTimer.Limits timeouts;

	private final Map<EventExecutor, CodecPool> codecs = new ConcurrentHashMap<>();

	/**
	 * Create the HTTP/1.1 initializer of a server.
	 * @param context what the server's connections share
	 * @param dispatcher the server's exchange stage
	 */
	public Http1Initializer(ServerContext context, ExchangeDispatcher dispatcher) {
		this.context = context;
		this.dispatcher = dispatcher;
		this.fixedResponses = Http1FixedResponses.encode(dispatcher.fixedResponses());
		this.decoderConfig = new HttpDecoderConfig().setMaxInitialLineLength(context.settings().maxInitialLineLength())
			.setMaxHeaderSize(context.settings().maxHeaderSize());
		this.timeouts = new ConnectionTimer.Limits(context.settings(), context.guards());
	}

	/**
	 * Load and initialize the classes every connection uses, so that the first connection does not wait for them.
	 */
	public static void preload() {
		ClassLoader loader = Http1Initializer.class.getClassLoader();
		for (Class<?> type : new Class<?>[] { Http1ServerHandler.class, ConnectionTimer.class, PipelinedRequests.class,
				Http1ServerCodec.class, ServerResponses.class,
				Http1FixedResponses.class, DateHeader.class, HttpDecoderConfig.class, CodecPool.class }) {
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
	public String protocol() {
		return PROTOCOL;
	}

	@Override
	public void initialize(Channel channel, ConnectionSecurity security) {
		CodecPool codecs = this.codecs.computeIfAbsent(channel.eventLoop(),
				(loop) -> new CodecPool(this.decoderConfig));
		Http1ServerHandler handler = new Http1ServerHandler(this.context, this.timeouts, this.dispatcher,
				this.fixedResponses, security, channel);
		Http1ServerCodec codec = new Http1ServerCodec(codecs, handler);
		handler.codec(codec);
		channel.pipeline().addLast(CODEC, codec).addLast(HANDLER, handler);
	}

}
