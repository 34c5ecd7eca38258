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

import io.khamsin.container.metrics.HandshakeFailure;

/**
 * Reads the ClientHello's server name (RFC 6066 section 3) and becomes the {@link SslHandler} of the context
 * that {@link TlsContexts#select} gives for it, as the contexts stand at that moment, so a swapped-in certificate
 * reaches every connection that arrives after the swap. The handshake deadline is kept by the recorder, so
 * neither this stage nor the TLS handler runs a timer of its own. The renegotiation guard in front of it stays only
 * for an identity the JDK runs. A client that offers by ALPN only protocols the listener does not speak gets the
 * {@code no_application_protocol} alert here instead of a handler ({@link AlpnOffer}, RFC 7301 section 3.2). A
 * connection the {@link KernelTlsPolicy} takes gets a {@link KernelTlsHandler} for the identity chosen instead.
 */
final class SniSelector extends SniHandler {

	private final TlsContexts contexts;

	private final HandshakeRecorder recorder;

	private final AlpnOffer alpn;

	/** What the client offered by ALPN when none of it is served, or {@code null}. */
	private String refusedAlpn;

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
