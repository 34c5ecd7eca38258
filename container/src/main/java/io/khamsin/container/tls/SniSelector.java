package io.khamsin.container.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;

/**
 * Reads the ClientHello's server name (RFC 6066 section 3) and becomes the {@link SslHandler} of the context
 * that {@link TlsContexts#select} gives for it, as the contexts stand at that moment, so a swapped-in certificate
 * reaches every connection that arrives after the swap. The handshake deadline is kept by the recorder, so
 * neither this stage nor the TLS handler runs a timer of its own. The renegotiation guard in front of it stays only
 * for an identity the JDK runs.
 */
final class SniSelector extends SniHandler {

	private final HandshakeRecorder recorder;

	SniSelector(TlsContexts contexts, HandshakeRecorder recorder) {
		super(contexts::select, 0L);
		this.recorder = recorder;
	}

	@Override
	protected void replaceHandler(ChannelHandlerContext ctx, String hostname, SslContext sslContext) {
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
