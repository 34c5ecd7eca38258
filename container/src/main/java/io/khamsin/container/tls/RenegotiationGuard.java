package io.khamsin.container.tls;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.metrics.TlsFigures;

/**
 * Refuses client-initiated renegotiation of a TLS 1.2 session on the JDK provider, which would otherwise accept it
 * (a cheap way to make a server do expensive handshakes; testssl flags it). It follows the record layer (RFC 5246
 * section 6.2.1: a 5-byte header of type, version and length) in front of the TLS handler without touching the
 * bytes; once the handshake is done, a client's handshake record can only be a new ClientHello, so the connection
 * is closed. TLS 1.3 has no renegotiation (RFC 8446 section 4.1.2): the guard leaves once it is negotiated.
 * BoringSSL refuses renegotiation itself and runs without the guard.
 */
final class RenegotiationGuard extends ChannelInboundHandlerAdapter {

	private static final Logger logger = LoggerFactory.getLogger(RenegotiationGuard.class);

	private static final int HANDSHAKE_RECORD = 22;

	private final TlsFigures.Reactor figures;

	private boolean armed;

	/** Header bytes of the next record read so far, 0 to 4. */
	private int headerRead;

	private int type;

	private int length;

	/** Body bytes of the current record still to come. */
	private int remaining;

	RenegotiationGuard(TlsFigures.Reactor figures) {
		this.figures = figures;
	}

	/** The TLS 1.2 handshake is done: from now on a handshake record is a renegotiation. */
	void arm() {
		this.armed = true;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (msg instanceof ByteBuf bytes && renegotiates(bytes)) {
			bytes.release();
			this.figures.failed(HandshakeFailure.RENEGOTIATION);
			logger.debug("Closing {}: it asked to renegotiate its TLS 1.2 session", ctx.channel());
			ctx.close();
			return;
		}
		ctx.fireChannelRead(msg);
	}

	private boolean renegotiates(ByteBuf bytes) {
		int index = bytes.readerIndex();
		int end = bytes.writerIndex();
		while (index < end) {
			if (this.remaining > 0) {
				int skipped = Math.min(this.remaining, end - index);
				this.remaining -= skipped;
				index += skipped;
				continue;
			}
			int b = bytes.getUnsignedByte(index++);
			switch (this.headerRead++) {
				case 0 -> this.type = b;
				case 3 -> this.length = b << 8;
				case 4 -> {
					this.length |= b;
					this.remaining = this.length;
					this.headerRead = 0;
					if (this.armed && this.type == HANDSHAKE_RECORD) {
						return true;
					}
				}
				default -> {
				}
			}
		}
		return false;
	}

}
