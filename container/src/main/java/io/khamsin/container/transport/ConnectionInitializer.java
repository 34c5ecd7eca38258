package io.khamsin.container.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ServerChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.ReactorMetrics;

/**
 * The first step of every accepted connection, whatever its protocol: admission (a connection beyond
 * {@code maxConnections}, or one accepted while the server drains, is closed at once), the connection's counts on
 * its reactor, the byte counter first in its pipeline (when figures are on), the {@link SendTimeout}, and then its
 * listener's {@link ProtocolSelector}, which sets it on its way to a protocol. Shared by the connections of a
 * listener.
 */
public final class ConnectionInitializer extends ChannelInitializer<Channel> implements ChannelFutureListener {

	/** The name of the byte counter in the pipeline. */
	public static final String TRAFFIC = "traffic";

	private static final Logger logger = LoggerFactory.getLogger(ConnectionInitializer.class);

	private final ServerContext context;

	private final ProtocolSelector protocols;

	/**
	 * Create the initializer of a listener's connections.
	 * @param context what the server's connections share
	 * @param protocols how a connection of the listener chooses its protocol
	 */
	public ConnectionInitializer(ServerContext context, ProtocolSelector protocols) {
		this.context = context;
		this.protocols = protocols;
	}

	/** @return how a connection chooses its protocol */
	public ProtocolSelector protocols() {
		return this.protocols;
	}

	/** @return the figures its connections are counted in, which name the reactors */
	KhamsinMetrics metrics() {
		return this.context.metrics();
	}

	@Override
	protected void initChannel(Channel channel) {
		ReactorMetrics reactor = this.context.metrics().reactor(channel.eventLoop());
		if (!this.context.connections().admit(channel)) {
			reactor.connectionRefused();
			this.context.guards().increment(Guard.MAX_CONNECTIONS);
			logger.debug("Refusing {}: khamsin.max-connections ({}) reached or shutting down", channel,
					this.context.connections().maxConnections());
			this.protocols.refuse(channel);
			return;
		}
		reactor.connectionAccepted();
		channel.closeFuture().addListener(this);
		// A QUIC connection's parent is its UDP socket, not a listening one: it is counted on that socket, and QUIC
		// times its own sends (a peer that acknowledges nothing ends at the idle timeout).
		if (channel.parent() instanceof ServerChannel) {
			if (reactor.enabled()) {
				channel.pipeline().addLast(TRAFFIC, reactor.trafficCounter());
			}
			channel.pipeline()
				.addLast(SendTimeout.NAME, new SendTimeout(this.context.settings().sendTimeout(), this.context.guards()));
		}
		this.protocols.select(channel);
	}

	/**
	 * An admitted connection closed.
	 * @param closed its close future, notified on its event loop
	 */
	@Override
	public void operationComplete(ChannelFuture closed) {
		Channel channel = closed.channel();
		this.context.connections().closed(channel);
		this.context.metrics().reactor(channel.eventLoop()).connectionClosed();
	}

}
