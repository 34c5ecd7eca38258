package io.khamsin.container.tls;

import java.util.concurrent.ScheduledFuture;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SniCompletionEvent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.internal.tcnative.SSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.metrics.TlsFigures;

/**
 * Counts a connection's handshake once: full, resumed, or failed with its reason (told to the
 * {@link HandshakeFailureLog}, which warns of those that are not the client's doing), and keeps the handshake
 * deadline, whose expiry is a guard event too. A connection that closes before it sends a byte made no handshake and is counted apart. Sits behind the
 * TLS handler until the handshake succeeds, then leaves; after a failure it stays, so that the failure's exception
 * ends here (logged at debug) instead of in the HTTP handlers.
 */
final class HandshakeRecorder extends ChannelInboundHandlerAdapter {

	private static final Logger logger = LoggerFactory.getLogger(HandshakeRecorder.class);

	private final TlsFigures.Reactor figures;

	private final GuardCounters guards;

	private final HandshakeFailureLog failureLog;

	private final long connectedAtMillis;

	private String serverName;

	private ScheduledFuture<?> deadline;

	private RenegotiationGuard guard;

	private boolean done;

	HandshakeRecorder(TlsFigures.Reactor figures, GuardCounters guards, HandshakeFailureLog failureLog,
			long connectedAtMillis) {
		this.figures = figures;
		this.guards = guards;
		this.failureLog = failureLog;
		this.connectedAtMillis = connectedAtMillis;
	}

	/** The SNI stage chose the identity for the host name the client sent ({@code null}: none). */
	void serverName(String serverName) {
		this.serverName = serverName;
	}

	void deadline(ScheduledFuture<?> deadline) {
		this.deadline = deadline;
	}

	void guard(RenegotiationGuard guard) {
		this.guard = guard;
	}

	@Override
	public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
		if (event instanceof SslHandshakeCompletionEvent completion) {
			if (completion.isSuccess()) {
				succeeded(ctx);
			}
			else {
				failed(ctx.channel(), HandshakeFailures.of(completion.cause()), completion.cause());
			}
		}
		else if (event instanceof SniCompletionEvent sni && !sni.isSuccess()) {
			failed(ctx.channel(), HandshakeFailure.MALFORMED, sni.cause());
		}
		ctx.fireUserEventTriggered(event);
	}

	private void succeeded(ChannelHandlerContext ctx) {
		if (this.done) {
			return;
		}
		this.done = true;
		this.deadline.cancel(false);
		SslHandler tls = ctx.pipeline().get(SslHandler.class);
		if (tls == null) {
			// A kernel TLS handshake (Bouncy Castle): full, as it sends no session ticket, and no renegotiation.
			this.figures.full();
			ctx.pipeline().remove(this);
			return;
		}
		SSLEngine engine = tls.engine();
		if (resumed(engine, this.connectedAtMillis)) {
			this.figures.resumed();
		}
		else {
			this.figures.full();
		}
		if (this.guard != null) {
			if ("TLSv1.2".equals(engine.getSession().getProtocol())) {
				this.guard.arm();
			}
			else {
				ctx.pipeline().remove(this.guard);
			}
		}
		ctx.pipeline().remove(this);
	}

	/**
	 * Whether the handshake resumed an earlier session. BoringSSL says so itself; on the JDK a resumed session
	 * (by ticket or by id) keeps the creation time of the session it resumes, from before this connection began.
	 */
	static boolean resumed(SSLEngine engine, long connectedAtMillis) {
		if (engine instanceof ReferenceCountedOpenSslEngine openSsl) {
			long ssl = openSsl.sslPointer();
			return ssl != 0 && SSL.isSessionReused(ssl);
		}
		SSLSession session = engine.getSession();
		return session.getCreationTime() < connectedAtMillis;
	}

	void failed(Channel channel, HandshakeFailure reason, String detail) {
		if (finish()) {
			this.figures.failed(reason);
			logger.debug("TLS handshake with {} failed ({}): {}", channel.remoteAddress(), reason.tag(), detail);
		}
	}

	void failed(Channel channel, HandshakeFailure reason, Throwable cause) {
		if (finish()) {
			this.figures.failed(reason);
			logger.debug("TLS handshake with {} failed ({}): {}", channel.remoteAddress(), reason.tag(),
					cause.toString());
			this.failureLog.failed(reason, this.serverName, cause);
		}
	}

	private boolean finish() {
		if (this.done) {
			return false;
		}
		this.done = true;
		if (this.deadline != null) {
			this.deadline.cancel(false);
		}
		return true;
	}

	void timedOut(Channel channel) {
		if (!this.done) {
			failed(channel, HandshakeFailure.TIMEOUT, "no handshake within the handshake timeout");
			this.guards.increment(Guard.TLS_HANDSHAKE_TIMEOUT);
			channel.close();
		}
	}

	void closed(Channel channel) {
		failed(channel, HandshakeFailure.CLOSED, "the connection closed during the handshake");
	}

	/** The connection closed before it sent a byte: a health check or a port scan, not a handshake. */
	void closedBeforeHello() {
		if (finish()) {
			this.figures.closedBeforeHello();
		}
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		closed(ctx.channel());
		ctx.fireChannelInactive();
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		if (!this.done) {
			failed(ctx.channel(), HandshakeFailures.of(cause), cause);
		}
		else {
			logger.debug("After its failed TLS handshake, {}: {}", ctx.channel(), cause.toString());
		}
		ctx.close();
	}

}
