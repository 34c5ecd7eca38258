package io.khamsin.container.http3;

import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.quic.QuicTokenHandler;

import io.khamsin.container.metrics.QuicCounters;

/**
 * Address validation tokens of QUIC's Retry (RFC 9000, section 8.1.2): a new client is first answered with a Retry
 * carrying a token bound to its address, and only a client that echoes it gets a connection, so that a spoofed source
 * address cannot make the server send a handshake's worth of packets to a victim. A token is
 * {@code version | issued (seconds) | HMAC-SHA256(address, port, issued, original connection ID) | original
 * connection ID}, valid for {@link #LIFETIME_SECONDS}; the key is random per server start, so no token outlives it.
 * One instance per UDP socket (its reactor's thread alone uses it), which counts the Retry packets it asks for and
 * the tokens it refuses in the reactor's figures; the key is shared by the sockets of a listener.
 */
final class RetryTokens implements QuicTokenHandler {

	/** How long a token is accepted: a Retry is echoed within a round trip. */
	static final long LIFETIME_SECONDS = 10;

	private static final byte VERSION = 1;

	private static final int MAC_LENGTH = 16;

	private static final int DCID_OFFSET = 1 + Long.BYTES + MAC_LENGTH;

	/** The longest connection ID QUIC v1 allows (RFC 9000, section 17.2). */
	private static final int MAX_CONNECTION_ID = 20;

	/** No Retry: every client gets a connection at once ({@code khamsin.http3.retry=false}). */
	static final QuicTokenHandler NONE = new QuicTokenHandler() {

		@Override
		public boolean writeToken(ByteBuf out, ByteBuf dcid, InetSocketAddress address) {
			return false;
		}

		@Override
		public int validateToken(ByteBuf token, InetSocketAddress address) {
			return 0;
		}

		@Override
		public int maxTokenLength() {
			return 0;
		}

	};

	private final Mac mac;

	private final QuicCounters figures;

	private final byte[] digest = new byte[32];

	RetryTokens(byte[] key, QuicCounters figures) {
		this.figures = figures;
		try {
			this.mac = Mac.getInstance("HmacSHA256");
			this.mac.init(new SecretKeySpec(key, "HmacSHA256"));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HMAC-SHA256 is not available for QUIC retry tokens", ex);
		}
	}

	/** @return a new random key for the tokens of a listener */
	static byte[] newKey() {
		byte[] key = new byte[32];
		new SecureRandom().nextBytes(key);
		return key;
	}

	@Override
	public boolean writeToken(ByteBuf out, ByteBuf dcid, InetSocketAddress address) {
		long issued = System.currentTimeMillis() / 1000;
		out.writeByte(VERSION).writeLong(issued);
		sign(address, issued, dcid, dcid.readerIndex(), dcid.readableBytes());
		out.writeBytes(this.digest, 0, MAC_LENGTH);
		out.writeBytes(dcid, dcid.readerIndex(), dcid.readableBytes());
		this.figures.retrySent();
		return true;
	}

	@Override
	public int validateToken(ByteBuf token, InetSocketAddress address) {
		int offset = validate(token, address);
		if (offset < 0) {
			this.figures.tokenRejected();
		}
		return offset;
	}

	private int validate(ByteBuf token, InetSocketAddress address) {
		int start = token.readerIndex();
		int length = token.readableBytes();
		if (length <= DCID_OFFSET || length > DCID_OFFSET + MAX_CONNECTION_ID || token.getByte(start) != VERSION) {
			return -1;
		}
		long issued = token.getLong(start + 1);
		long age = System.currentTimeMillis() / 1000 - issued;
		if (age < 0 || age > LIFETIME_SECONDS) {
			return -1;
		}
		sign(address, issued, token, start + DCID_OFFSET, length - DCID_OFFSET);
		byte[] presented = new byte[MAC_LENGTH];
		token.getBytes(start + 1 + Long.BYTES, presented);
		byte[] expected = new byte[MAC_LENGTH];
		System.arraycopy(this.digest, 0, expected, 0, MAC_LENGTH);
		return MessageDigest.isEqual(presented, expected) ? DCID_OFFSET : -1;
	}

	@Override
	public int maxTokenLength() {
		return DCID_OFFSET + MAX_CONNECTION_ID;
	}

	private void sign(InetSocketAddress address, long issued, ByteBuf cid, int index, int length) {
		this.mac.update(address.getAddress().getAddress());
		int port = address.getPort();
		this.mac.update((byte) (port >>> 8));
		this.mac.update((byte) port);
		for (int shift = 56; shift >= 0; shift -= 8) {
			this.mac.update((byte) (issued >>> shift));
		}
		for (int i = 0; i < length; i++) {
			this.mac.update(cid.getByte(index + i));
		}
		try {
			this.mac.doFinal(this.digest, 0);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
