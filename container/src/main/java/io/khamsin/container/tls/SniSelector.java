package io.khamsin.container.tls;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;

import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.transport.Reactors;

/**
 * Reads the ClientHello's server name (RFC 6066 section 3) and becomes the {@link SslHandler} of the context
 * that {@link TlsContexts#select} gives for it, as the contexts stand at that moment, so a swapped-in certificate
 * reaches every connection that arrives after the swap. The handshake deadline is kept by the recorder, so
 * neither this stage nor the TLS handler runs a timer of its own. The renegotiation guard in front of it stays only
 * for an identity the JDK runs. A client that offers by ALPN only protocols the listener does not speak gets the
 * {@code no_application_protocol} alert here instead of a handler ({@link AlpnOffer}, RFC 7301 section 3.2). A
 * connection the {@link KernelTlsPolicy} takes gets a {@link KernelTlsHandler} for the identity chosen instead.
 * <p>
 * The handler it becomes answers the ClientHello at once, signature included, so the choice is made as a heavy job of
 * the reactor ({@link Reactors#runHeavy}): ClientHellos that arrive together are answered between passes over the
 * reactor's sockets, with at most as much of its time as its other work, and the requests of its other connections
 * are served between them. Until its turn comes the connection's further bytes wait here.
 */
final class SniSelector extends SniHandler {

	private final TlsContexts contexts;

	private final HandshakeRecorder recorder;

	private final AlpnOffer alpn;

	/** What the client offered by ALPN when none of it is served, or {@code null}. */
	private String refusedAlpn;

	/** The choice of context while it waits for its turn on the reactor, or {@code null}. */
	private Promise<SslContext> waiting;

	SniSelector(TlsContexts contexts, HandshakeRecorder recorder, AlpnOffer alpn) {
		super(contexts::select, 0L);
		this.contexts = contexts;
		this.recorder = recorder;
		this.alpn = alpn;
	}

	@Override
	protected Future<SslContext> lookup(ChannelHandlerContext ctx, ByteBuf clientHello) throws Exception {
		if (clientHello != null && this.alpn.noneServed(clientHello)) {
			this.refusedAlpn = AlpnOffer.offered(clientHello);
		}
		return super.lookup(ctx, clientHello);
	}

	@Override
	protected Future<SslContext> lookup(ChannelHandlerContext ctx, String hostname) {
		Promise<SslContext> selected = ctx.executor().newPromise();
		if (this.refusedAlpn != null) {
			// Refused without a handshake: nothing heavy to wait for.
			return selected.setSuccess(null);
		}
		Reactors.runHeavy(ctx.executor(), () -> select(hostname, selected));
		if (!selected.isDone()) {
			this.waiting = selected;
		}
		return selected;
	}

	private void select(String hostname, Promise<SslContext> selected) {
		if (selected.isDone()) {
			// Cancelled: the connection closed while it waited.
			return;
		}
		try {
			selected.trySuccess(this.contexts.select(hostname));
		}
		catch (RuntimeException ex) {
			selected.tryFailure(ex);
		}
	}

	@Override
	protected void onLookupComplete(ChannelHandlerContext ctx, Future<SslContext> future) throws Exception {
		this.waiting = null;
		if (!future.isCancelled()) {
			super.onLookupComplete(ctx, future);
		}
	}

	@Override
	protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
		Promise<SslContext> waiting = this.waiting;
		if (waiting != null) {
			// Lets Netty's listener release the ClientHello it holds.
			waiting.cancel(false);
		}
		super.handlerRemoved0(ctx);
	}

	@Override
	protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
		if (this.refusedAlpn != null) {
			in.skipBytes(in.readableBytes());
			return;
		}
		super.decode(ctx, in, out);
	}

	@Override
	protected void replaceHandler(ChannelHandlerContext ctx, String hostname, SslContext sslContext) {
		this.recorder.serverName(hostname);
		if (this.refusedAlpn != null) {
			this.recorder.failed(ctx.channel(), HandshakeFailure.NO_APPLICATION_PROTOCOL,
					"it offered by ALPN only " + this.refusedAlpn);
			ctx.writeAndFlush(AlpnOffer.alert()).addListener(ChannelFutureListener.CLOSE);
			return;
		}
		KernelTlsPolicy kernelTls = this.contexts.kernelTls();
		TlsMaterial material = kernelTls.engages() ? this.contexts.material(hostname) : null;
		if (material != null && kernelTls.refusal(ctx.channel(), material) == null) {
			// Bouncy Castle refuses a renegotiation itself.
			ctx.pipeline().remove(TlsHandlers.RENEGOTIATION);
			this.recorder.guard(null);
			ctx.pipeline().replace(this, TlsHandlers.TLS, kernelTls.newHandler(material));
			return;
		}
		if (sslContext instanceof ReferenceCountedOpenSslContext) {
			// BoringSSL refuses a renegotiation itself.
			ctx.pipeline().remove(TlsHandlers.RENEGOTIATION);
			this.recorder.guard(null);
		}
		SslHandler handler = newSslHandler(sslContext, ctx.alloc());
		try {
			ctx.pipeline().replace(this, TlsHandlers.TLS, handler);
			handler = null;
		}
		finally {
			if (handler != null) {
				ReferenceCountUtil.safeRelease(handler.engine());
			}
		}
	}

	@Override
	protected SslHandler newSslHandler(SslContext context, ByteBufAllocator allocator) {
		SslHandler handler = context.newHandler(allocator);
		handler.setHandshakeTimeoutMillis(0);
		return handler;
	}

}
