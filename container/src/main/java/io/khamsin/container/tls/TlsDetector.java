package io.khamsin.container.tls;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.metrics.TlsFigures;

/**
 * The first handler of a connection to a TLS port: its first byte tells a TLS handshake record (content type 22,
 * RFC 8446 section 5.1) from cleartext. TLS sets up the SNI stage and the handshake recorder behind it and hands
 * them the bytes; an HTTP request (its method starts with a letter) is answered 400 with a body that says to use
 * https, and anything else is closed. Starts the handshake deadline, which the recorder then keeps.
 */
final class TlsDetector extends ChannelInboundHandlerAdapter {

	private static final Logger logger = LoggerFactory.getLogger(TlsDetector.class);

	private static final int HANDSHAKE_RECORD = 22;

	private final TlsContexts contexts;

	private final TlsFigures.Reactor figures;

	private final GuardCounters guards;

	private final HandshakeFailureLog failureLog;

	private final long timeoutMillis;

	private HandshakeRecorder recorder;

	TlsDetector(TlsContexts contexts, TlsFigures.Reactor figures, GuardCounters guards, HandshakeFailureLog failureLog,
			long timeoutMillis) {
		this.contexts = contexts;
		this.figures = figures;
		this.guards = guards;
		this.failureLog = failureLog;
		this.timeoutMillis = timeoutMillis;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		this.recorder = new HandshakeRecorder(this.figures, this.guards, this.failureLog,
				System.currentTimeMillis());
		ScheduledFuture<?> deadline = ctx.executor().schedule(() -> this.recorder.timedOut(ctx.channel()),
				this.timeoutMillis, TimeUnit.MILLISECONDS);
		this.recorder.deadline(deadline);
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (!(msg instanceof ByteBuf bytes) || !bytes.isReadable()) {
			ctx.fireChannelRead(msg);
			return;
		}
		int first = bytes.getUnsignedByte(bytes.readerIndex());
		if (first == HANDSHAKE_RECORD) {
			ChannelPipeline pipeline = ctx.pipeline();
			// In front of the SNI stage, so that it reads every record from the first; it leaves when the identity
			// chosen runs on BoringSSL.
			RenegotiationGuard guard = new RenegotiationGuard(this.figures);
			this.recorder.guard(guard);
			pipeline.addAfter(ctx.name(), TlsHandlers.RENEGOTIATION, guard);
			pipeline.addAfter(TlsHandlers.RENEGOTIATION, TlsHandlers.SNI,
					new SniSelector(this.contexts, this.recorder, this.contexts.alpnOffer()));
			pipeline.addAfter(TlsHandlers.SNI, TlsHandlers.HANDSHAKE, this.recorder);
			ctx.fireChannelRead(bytes);
			pipeline.remove(this);
			return;
		}
		if (isTokenStart(first)) {
			refuseCleartext(ctx, bytes);
			return;
		}
		ReferenceCountUtil.release(bytes);
		this.recorder.failed(ctx.channel(), HandshakeFailure.MALFORMED, "its first byte (0x"
				+ Integer.toHexString(first) + ") starts no TLS handshake record");
		ctx.close();
	}

	private void refuseCleartext(ChannelHandlerContext ctx, ByteBuf request) {
		String host = hostHeader(request);
		request.release();
		this.recorder.failed(ctx.channel(), HandshakeFailure.CLEARTEXT, "it sent cleartext to a TLS port");
		String body = "This port speaks HTTPS only: send the request to https://" + ((host != null) ? host : "this-host")
				+ "/ instead of http://.\n";
		byte[] bodyBytes = body.getBytes(StandardCharsets.US_ASCII);
		String head = "HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=us-ascii\r\ncontent-length: "
				+ bodyBytes.length + "\r\nconnection: close\r\n\r\n";
		ByteBuf response = Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), bodyBytes);
		ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
	}

	/** The Host header's value when it is in the first bytes and holds only host and port characters. */
	static String hostHeader(ByteBuf request) {
		String text = request.toString(request.readerIndex(), Math.min(request.readableBytes(), 8192),
				StandardCharsets.ISO_8859_1);
		int at = 0;
		while (true) {
			int line = text.indexOf("\r\n", at);
			if (line < 0 || line + 2 >= text.length() || text.startsWith("\r\n", line + 2)) {
				return null;
			}
			int start = line + 2;
			if (text.regionMatches(true, start, "host:", 0, 5)) {
				int end = text.indexOf("\r\n", start);
				if (end < 0) {
					return null;
				}
				String value = text.substring(start + 5, end).trim();
				return value.matches("[A-Za-z0-9.\\-:\\[\\]]{1,255}") ? value : null;
			}
			at = start;
		}
	}

	private static boolean isTokenStart(int b) {
		return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z');
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		// Still here: the connection sent no byte (a first byte that is no TLS record was counted already).
		this.recorder.closedBeforeHello();
		ctx.fireChannelInactive();
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		logger.debug("{} failed before its first byte: {}", ctx.channel(), cause.toString());
		ctx.close();
	}

}
