package io.khamsin.container.http3;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http3.DefaultHttp3GoAwayFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicConnectionStats;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicTransportError;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.engine.DrainEvent;
import io.khamsin.container.exchange.ConnectionHandler;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.Protocol;
import io.khamsin.container.metrics.QuicCounters;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.metrics.TlsFigures;
import io.khamsin.container.tls.QuicTlsContexts;
import io.khamsin.container.transport.ConnectionSecurity;

/**
 * What a QUIC connection that speaks HTTP/3 is to khamsin, as a handler of the connection's channel: the
 * {@link io.khamsin.container.bridge.ConnectionInfo} its request streams share (its addresses are the UDP peer's, not
 * the connection IDs the channel's own are), its handshake in the TLS figures, the count of its open request streams
 * (in the reactor's QUIC figures too, with the packets it sent, received and lost once it closes), and its part in a graceful shutdown: a {@code GOAWAY} that names the first stream it will not serve (RFC 9114,
 * section 5.2), then the close once the streams it took are answered.
 */
final class Http3Connection extends ConnectionHandler {

	private static final Logger logger = LoggerFactory.getLogger(Http3Connection.class);

	/** The application error code of a clean close (RFC 9114, section 8.1: H3_NO_ERROR). */
	static final int H3_NO_ERROR = 0x100;

	/**
	 * How long a drained connection stays open after its last stream: a QUIC close discards what the connection has
	 * not sent yet, the GOAWAY and the end of the last response among it, and without the GOAWAY the client cannot
	 * tell which of its streams were processed. A quarter of a second covers several round trips and a lost packet
	 * on a nearby network; streams the client opens meanwhile are refused as the GOAWAY says.
	 */
	static final long DRAIN_CLOSE_DELAY_MILLIS = 250;

	/** The peer is generating excessive load (RFC 9114, section 8.1: H3_EXCESSIVE_LOAD). */
	static final int H3_EXCESSIVE_LOAD = 0x107;

	private final ReactorMetrics reactor;

	private final TlsFigures.Reactor handshakes;

	private final QuicCounters quic;

	private final GuardCounters guards;

	private final int maxResetsPerWindow;

	private final long resetWindowNanos;

	private long resetWindowStart;

	private int resetsInWindow;

	private long connectedAtMillis;

	private QuicChannel channel;

	private int openStreams;

	private long nextStreamId;

	private boolean draining;

	private boolean closed;

	private boolean closeScheduled;

	Http3Connection(ConnectionSecurity security, ReactorMetrics reactor, TlsFigures.Reactor handshakes,
			GuardCounters guards, Http3Config config) {
		super(security);
		this.reactor = reactor;
		this.handshakes = handshakes;
		this.quic = reactor.quic();
		this.guards = guards;
		this.maxResetsPerWindow = config.maxResetsPerWindow();
		this.resetWindowNanos = config.resetWindow().toNanos();
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.channel = (QuicChannel) ctx.channel();
		this.connectedAtMillis = System.currentTimeMillis();
		this.quic.connectionOpened();
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		connectionEnded();
		ctx.fireChannelInactive();
	}

	@Override
	public void handlerRemoved(ChannelHandlerContext ctx) {
		connectionEnded();
	}

	private void connectionEnded() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.quic.connectionClosed();
		// quiche's figures outlive the connection: Netty keeps them when it frees the connection at its close, and
		// answers at once on the connection's reactor.
		this.channel.collectStats().addListener((Future<QuicConnectionStats> stats) -> {
			QuicConnectionStats figures = stats.getNow();
			if (figures != null) {
				this.quic.packets(figures.sent(), figures.recv(), figures.lost());
			}
		});
	}

	@Override
	protected Channel connectionChannel() {
		return this.channel;
	}

	@Override
	protected SocketAddress remoteSocketAddress() {
		return this.channel.remoteSocketAddress();
	}

	@Override
	protected SocketAddress localSocketAddress() {
		return this.channel.localSocketAddress();
	}

	@Override
	public Protocol protocol() {
		return Protocol.H3;
	}

	@Override
	public boolean framed() {
		return true;
	}

	/** @return the figures of the connection's reactor */
	ReactorMetrics reactor() {
		return this.reactor;
	}

	/**
	 * A request stream opened.
	 * @param stream its channel
	 * @return whether to serve it: not once a shutdown's {@code GOAWAY} has named an earlier stream
	 */
	boolean streamOpened(QuicStreamChannel stream) {
		long id = stream.streamId();
		if (this.draining && id >= this.nextStreamId) {
			return false;
		}
		this.nextStreamId = Math.max(this.nextStreamId, id + 4);
		this.openStreams++;
		this.quic.streamOpened();
		return true;
	}

	/**
	 * A request stream ended before its response did: the client reset or stopped it, or made the server reset it.
	 * Each costs the server a dispatch and frees a stream for the next, so, as HTTP/2's Rapid Reset, more than
	 * {@code max-resets-per-window} within {@code reset-window} close the connection with {@code H3_EXCESSIVE_LOAD}.
	 */
	void streamEndedEarly() {
		if (this.closed || !this.channel.isActive()) {
			// A connection that closes takes its open streams with it: not the client's doing.
			return;
		}
		long now = System.nanoTime();
		if (this.resetsInWindow == 0 || now - this.resetWindowStart > this.resetWindowNanos) {
			this.resetWindowStart = now;
			this.resetsInWindow = 0;
		}
		if (++this.resetsInWindow > this.maxResetsPerWindow) {
			this.guards.increment(Guard.H3_RAPID_RESET);
			logger.info("HTTP/3 client {} tripped {} (khamsin.http3.max-resets-per-window={} per {}s): {} request "
					+ "streams ended before their responses; closing the connection with H3_EXCESSIVE_LOAD",
					this.channel.remoteSocketAddress(), Guard.H3_RAPID_RESET.tag(), this.maxResetsPerWindow,
					this.resetWindowNanos / 1_000_000_000L, this.resetsInWindow);
			this.channel.close(true, H3_EXCESSIVE_LOAD, Unpooled.EMPTY_BUFFER);
		}
	}

	/** A request stream that {@link #streamOpened} served closed. */
	void streamClosed() {
		this.openStreams--;
		this.quic.streamClosed();
		if (this.draining && this.openStreams == 0) {
			closeDrained();
		}
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
		if (event instanceof DrainEvent) {
			drain();
			return;
		}
		if (event instanceof SslHandshakeCompletionEvent completion) {
			QuicTlsContexts.recordHandshake(this.handshakes, completion, this.channel.sslEngine(),
					this.connectedAtMillis);
		}
		ctx.fireUserEventTriggered(event);
	}

	private void drain() {
		if (this.draining) {
			return;
		}
		this.draining = true;
		QuicStreamChannel control = Http3.getLocalControlStream(this.channel);
		if (control == null) {
			// Still in its handshake: no GOAWAY can be sent, and a close with H3_NO_ERROR would leave the requests the
			// client opens meanwhile in doubt, so the connection is refused as the listener refuses new ones.
			logger.debug("Refusing HTTP/3 connection {}: shutting down before its handshake ended", this.channel);
			this.channel.close(false, (int) QuicTransportError.CONNECTION_REFUSED.code(), Unpooled.EMPTY_BUFFER);
			return;
		}
		// Streams up to the next one the client may open are served; later ones are not (section 5.2).
		control.writeAndFlush(new DefaultHttp3GoAwayFrame(this.nextStreamId));
		if (this.openStreams == 0) {
			closeDrained();
		}
	}

	private void closeDrained() {
		if (!this.closeScheduled) {
			this.closeScheduled = true;
			this.channel.eventLoop().schedule(this::close, DRAIN_CLOSE_DELAY_MILLIS, TimeUnit.MILLISECONDS);
		}
	}

	private void close() {
		logger.debug("Closing HTTP/3 connection {}: shutting down and no request stream open", this.channel);
		this.channel.close(true, H3_NO_ERROR, Unpooled.EMPTY_BUFFER)
			.addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
	}

}
