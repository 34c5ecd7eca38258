package io.khamsin.container.tls;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.transport.ConnectionSecurity;
import io.khamsin.container.transport.ProtocolInitializer;
import io.khamsin.container.transport.ProtocolSelector;

/**
 * How a connection to a TLS listener comes to speak a protocol: the {@link TlsHandlers} first, then, once the
 * handshake has completed, the {@link ProtocolInitializer} of the protocol ALPN agreed on (RFC 7301), with a
 * {@link ConnectionSecurity} that reads the connection's TLS session. The protocols offered are the contexts' ALPN
 * list ({@link TlsConfig#alpnProtocols()}), each of which must have its initializer here; a client that sends no
 * ALPN extension speaks HTTP/1.1 (RFC 9112 has no other way to start), or the first protocol offered when HTTP/1.1
 * is not; one that offers only protocols not in the list never gets here: the SNI stage answers it with the
 * {@code no_application_protocol} alert (RFC 7301 section 3.2).
 * <p>
 * A protocol joins by adding its name to the ALPN list and its initializer to the list given here.
 */
public final class TlsProtocolSelector implements ProtocolSelector {

	/** The name of the stage that waits for the handshake and hands the connection to its protocol. */
	public static final String ALPN = "tls-alpn";

	private static final Logger logger = LoggerFactory.getLogger(TlsProtocolSelector.class);

	private final TlsHandlers handlers;

	private final Map<String, ProtocolInitializer> initializers;

	private final String fallback;

	/**
	 * Create the selector of a TLS listener.
	 * @param handlers the TLS handlers of the listener
	 * @param initializers the initializers of the protocols it may speak, at least one per protocol ALPN offers
	 * @throws IllegalStateException if a protocol ALPN offers has no initializer
	 */
	public TlsProtocolSelector(TlsHandlers handlers, List<ProtocolInitializer> initializers) {
		if (handlers == null) {
			throw new IllegalArgumentException("handlers must not be null");
		}
		if (initializers == null || initializers.isEmpty()) {
			throw new IllegalArgumentException("initializers must not be empty");
		}
		Map<String, ProtocolInitializer> byName = new LinkedHashMap<>();
		for (ProtocolInitializer initializer : initializers) {
			byName.putIfAbsent(initializer.protocol(), initializer);
		}
		Map<String, ProtocolInitializer> offered = new LinkedHashMap<>();
		for (String protocol : handlers.contexts().alpnProtocols()) {
			ProtocolInitializer initializer = byName.get(protocol);
			if (initializer == null) {
				throw new IllegalStateException("TLS offers " + protocol + " by ALPN, but this server speaks only "
						+ String.join(", ", byName.keySet()) + ": remove it from the ALPN protocols");
			}
			offered.put(protocol, initializer);
		}
		this.handlers = handlers;
		this.initializers = Map.copyOf(offered);
		this.fallback = offered.containsKey(ApplicationProtocolNames.HTTP_1_1) ? ApplicationProtocolNames.HTTP_1_1
				: offered.keySet().iterator().next();
	}

	@Override
	public List<String> protocols() {
		return this.handlers.contexts().alpnProtocols();
	}

	@Override
	public String tls() {
		return this.handlers.contexts().providerDescription();
	}

	/** @return the TLS handlers of the listener: its contexts and handshake figures */
	public TlsHandlers handlers() {
		return this.handlers;
	}

	@Override
	public void select(Channel channel) {
		channel.pipeline()
			.addLast(TlsHandlers.DETECTOR, this.handlers.newHandler(channel))
			.addLast(ALPN, new ProtocolNegotiation(this.fallback));
	}

	/**
	 * Waits for the handshake, which the TLS handlers in front of it count and whose failures they log, and sets up
	 * the agreed protocol's pipeline behind it before it leaves. What is read before that (nothing, as both TLS
	 * handlers deliver application data only after their handshake event) waits here and follows it. Netty's
	 * {@code ApplicationProtocolNegotiationHandler} does the same for an {@code SslHandler} only; this one reads the
	 * protocol from whichever TLS handler ran the handshake.
	 */
	private final class ProtocolNegotiation extends ChannelInboundHandlerAdapter {

		private final String fallback;

		private final List<Object> early = new ArrayList<>(1);

		ProtocolNegotiation(String fallback) {
			this.fallback = fallback;
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			this.early.add(msg);
		}

		@Override
		public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
			if (event instanceof SslHandshakeCompletionEvent completion) {
				if (completion.isSuccess()) {
					try {
						configure(ctx, agreed(ctx));
					}
					catch (RuntimeException ex) {
						logger.debug("Closing {}: its protocol could not be set up: {}", ctx.channel(), ex.toString());
						ctx.close();
						return;
					}
					ctx.pipeline().remove(this);
				}
				else {
					// Counted and logged by the handshake recorder, with its reason.
					ctx.close();
				}
			}
			ctx.fireUserEventTriggered(event);
		}

		private String agreed(ChannelHandlerContext ctx) {
			SslHandler tls = ctx.pipeline().get(SslHandler.class);
			String protocol;
			if (tls != null) {
				protocol = tls.applicationProtocol();
			}
			else {
				KernelTlsHandler kernel = ctx.pipeline().get(KernelTlsHandler.class);
				if (kernel == null) {
					throw new IllegalStateException("the handshake completed with no TLS handler in the pipeline");
				}
				protocol = kernel.applicationProtocol();
			}
			return (protocol != null) ? protocol : this.fallback;
		}

		private void configure(ChannelHandlerContext ctx, String protocol) {
			ProtocolInitializer initializer = TlsProtocolSelector.this.initializers.get(protocol);
			if (initializer == null) {
				// The server chooses from its own list: a protocol it did not offer means a broken peer or stack.
				throw new IllegalStateException("ALPN agreed on " + protocol + ", which this listener does not offer");
			}
			initializer.initialize(ctx.channel(), TlsConnectionSecurity.INSTANCE);
		}

		@Override
		public void handlerRemoved(ChannelHandlerContext ctx) {
			if (this.early.isEmpty()) {
				return;
			}
			List<Object> early = new ArrayList<>(this.early);
			this.early.clear();
			early.forEach(ctx::fireChannelRead);
			ctx.fireChannelReadComplete();
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			this.early.forEach(ReferenceCountUtil::release);
			this.early.clear();
			ctx.fireChannelInactive();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			logger.debug("Closing {} before it chose its protocol: {}", ctx.channel(), cause.toString());
			ctx.close();
		}

	}

}
