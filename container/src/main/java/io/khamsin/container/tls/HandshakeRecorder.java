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

/**
 * Counts a connection's handshake once: full, resumed, or failed with its reason, and keeps the handshake
 * deadline. Sits behind the TLS handler until the handshake succeeds, then leaves; after a failure it stays, so
 * that the failure's exception ends here (logged at debug) instead of in the HTTP handlers.
 */
final class HandshakeRecorder extends ChannelInboundHandlerAdapter {

	private static final Logger logger = LoggerFactory.getLogger(HandshakeRecorder.class);

	private final TlsFigures.Reactor figures;

	private final long connectedAtMillis;

	private ScheduledFuture<?> deadline;

	private RenegotiationGuard guard;

	private boolean done;

	HandshakeRecorder(TlsFigures.Reactor figures, long connectedAtMillis) {
		this.figures = figures;
		this.connectedAtMillis = connectedAtMillis;
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
				failed(ctx.channel(), HandshakeFailure.of(completion.cause()), completion.cause().toString());
			}
		}
		else if (event instanceof SniCompletionEvent sni && !sni.isSuccess()) {
			failed(ctx.channel(), HandshakeFailure.MALFORMED, sni.cause().toString());
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
		if (this.done) {
			return;
		}
		this.done = true;
		if (this.deadline != null) {
			this.deadline.cancel(false);
		}
		this.figures.failed(reason);
		logger.debug("TLS handshake with {} failed ({}): {}", channel.remoteAddress(), reason, detail);
	}

	void timedOut(Channel channel) {
		if (!this.done) {
			failed(channel, HandshakeFailure.TIMEOUT, "no handshake within the handshake timeout");
			channel.close();
		}
	}

	void closed(Channel channel) {
		failed(channel, HandshakeFailure.CLOSED, "the connection closed during the handshake");
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		closed(ctx.channel());
		ctx.fireChannelInactive();
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		if (!this.done) {
			failed(ctx.channel(), HandshakeFailure.of(cause), cause.toString());
		}
		else {
			logger.debug("After its failed TLS handshake, {}: {}", ctx.channel(), cause.toString());
		}
		ctx.close();
	}

}
