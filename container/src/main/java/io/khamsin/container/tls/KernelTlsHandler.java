package io.khamsin.container.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import org.bouncycastle.tls.AlertDescription;
import org.bouncycastle.tls.KeyUpdateRequest;
import org.bouncycastle.tls.ProtocolName;
import org.bouncycastle.tls.SecurityParameters;
import org.bouncycastle.tls.TlsFatalAlert;
import org.bouncycastle.tls.TlsServerProtocol;
import org.bouncycastle.tls.TlsUtils;
import org.bouncycastle.tls.crypto.impl.jcajce.JcaTlsCrypto;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.egress.TlsSealing;
import io.khamsin.container.ktls.KernelTlsCipher;
import io.khamsin.container.ktls.KeySchedule;
import io.khamsin.container.ktls.TrafficKeys;

/**
 * TLS for a connection that may hand its sending to the kernel, in place of Netty's {@code SslHandler}: Bouncy
 * Castle runs the handshake and opens every record received; once a TLS 1.3 handshake is complete and all that was
 * sealed in user space has reached the socket, the sending keys and the count of records sealed under them go to
 * the kernel ({@link KernelTlsSwitch}), and from then on what the connection writes (bytes, and file regions, which
 * the kernel then sends by {@code sendfile}) passes through as plaintext for the kernel to seal.
 * <p>
 * The sequence number is exact because Bouncy Castle sends TLS 1.3 no session ticket and every byte it seals
 * passes through here: the records counted after the handshake are those sealed under the application key. Once
 * the kernel seals, nothing Bouncy Castle seals may reach the socket, as it would reuse a sequence number: a
 * {@code close_notify} it would answer with is dropped (the connection closes without one), and a client's
 * {@code KeyUpdate} that asks for ours closes the connection, as this handler cannot make the kernel send a
 * handshake record. A connection the kernel does not take (TLS 1.2, a cipher it cannot seal, a socket that refuses)
 * stays in user space for its life; {@link #userspaceReason()} says why.
 */
public final class KernelTlsHandler extends ChannelDuplexHandler {

	private static final Logger logger = LoggerFactory.getLogger(KernelTlsHandler.class);

	/** Bouncy Castle's crypto on the JDK's providers (AES-GCM on its intrinsics), shared by every connection. */
	static final JcaTlsCrypto CRYPTO = new KernelTlsCrypto(new SecureRandom());

	/** The most plaintext a TLS record carries, and what the kernel puts in each record it seals. */
	private static final int MAX_PLAINTEXT = 1 << 14;

	private final KernelTlsServer server;

	private final KernelTlsSwitch kernel;

	private final Protocol protocol = new Protocol();

	private final RecordCounter sealedSinceHandshake = new RecordCounter();

	private boolean started;

	private boolean handshaken;

	private TrafficKeys sendingKeys;

	private boolean waitingForWrites;

	private volatile boolean kernelSends;

	private boolean keyUpdateRequested;

	private boolean sendingKeysChanged;

	private boolean deliveredSinceReadComplete;

	private volatile String userspaceReason = "the handshake is not complete";

	private ChannelFuture lastSealedWrite;

	private volatile String applicationProtocol;

	private volatile String protocolVersion;

	private volatile SslInfo sslInfo;

	KernelTlsHandler(KernelTlsServer server, KernelTlsSwitch kernel) {
		this.server = server;
		this.kernel = kernel;
	}

	/**
	 * A handler for one connection that hands its sending to the kernel by its socket options.
	 * @param material the identity the connection is served with (its key: RSA, or EC on P-256 or P-384)
	 * @param applicationProtocols the ALPN names offered, most preferred first; empty for no ALPN
	 * @return the handler
	 */
	public static KernelTlsHandler of(TlsMaterial material, List<String> applicationProtocols) {
		return new KernelTlsHandler(new KernelTlsServer(CRYPTO, material.privateKey(), material.certificateChain(),
				applicationProtocols, true), KernelTlsSocket.INSTANCE);
	}

	/** @return whether the kernel seals what this connection sends */
	public boolean kernelSends() {
		return this.kernelSends;
	}

	/** @return why this connection's records are sealed in user space, or {@code null} if the kernel seals them */
	public String userspaceReason() {
		return this.kernelSends ? null : this.userspaceReason;
	}

	/**
	 * Who seals what this connection sends now: the kernel, the JVM for good (the kernel did not take it, or cannot),
	 * or the JVM until the hand-over (the handshake or its last records are not through yet).
	 * @return who seals it
	 */
	public TlsSealing sealing() {
		if (this.kernelSends) {
			return TlsSealing.KERNEL;
		}
		return (this.handshaken && this.sendingKeys == null) ? TlsSealing.KERNEL_REFUSED : TlsSealing.USERSPACE;
	}

	/** @return the connection's TLS session as Spring shows it, or {@code null} before the handshake ends */
	public SslInfo sslInfo() {
		return this.sslInfo;
	}

	/** @return the protocol ALPN chose, or {@code null} if none was chosen (or before the handshake ends) */
	public String applicationProtocol() {
		return this.applicationProtocol;
	}

	/** @return the negotiated protocol, e.g. {@code TLSv1.3}, or {@code null} before the handshake ends */
	public String protocolVersion() {
		return this.protocolVersion;
	}

	@Override
	public void handlerAdded(ChannelHandlerContext ctx) {
		if (ctx.channel().isActive()) {
			start(ctx);
		}
	}

	@Override
	public void channelActive(ChannelHandlerContext ctx) {
		start(ctx);
		ctx.fireChannelActive();
	}

	private void start(ChannelHandlerContext ctx) {
		if (this.started) {
			return;
		}
		this.started = true;
		try {
			this.protocol.accept(this.server);
		}
		catch (IOException ex) {
			fail(ctx, ex);
		}
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		if (!(msg instanceof ByteBuf received)) {
			ctx.fireChannelRead(msg);
			return;
		}
		try {
			if (received.isReadable() && !this.protocol.isClosed()) {
				byte[] bytes = ByteBufUtil.getBytes(received);
				this.protocol.offerInput(bytes, 0, bytes.length);
			}
		}
		catch (IOException | RuntimeException ex) {
			fail(ctx, ex);
			return;
		}
		finally {
			received.release();
		}
		sendSealed(ctx, null, true);
		if (!this.handshaken && this.server.isComplete()) {
			handshakeComplete(ctx);
		}
		deliverPlaintext(ctx);
		if (this.keyUpdateRequested) {
			logger.debug("{}: the client asked for a KeyUpdate, which a connection the kernel seals cannot answer; "
					+ "closing it", ctx.channel());
			ctx.close();
		}
		else if (this.protocol.isClosed()) {
			ctx.close();
		}
	}

	private void deliverPlaintext(ChannelHandlerContext ctx) {
		int available;
		while ((available = this.protocol.getAvailableInputBytes()) > 0) {
			byte[] plain = new byte[available];
			this.protocol.readInput(plain, 0, available);
			this.deliveredSinceReadComplete = true;
			ctx.fireChannelRead(Unpooled.wrappedBuffer(plain));
		}
	}

	@Override
	public void channelReadComplete(ChannelHandlerContext ctx) {
		boolean delivered = this.deliveredSinceReadComplete;
		this.deliveredSinceReadComplete = false;
		ctx.fireChannelReadComplete();
		if (!delivered && !ctx.channel().config().isAutoRead()) {
			// Handshake messages or part of a record: nobody above asked for these bytes, so ask for the rest here.
			ctx.read();
		}
	}

	private void handshakeComplete(ChannelHandlerContext ctx) {
		this.handshaken = true;
		SecurityParameters parameters = this.server.parameters();
		ProtocolName alpn = parameters.getApplicationProtocol();
		this.applicationProtocol = (alpn != null) ? alpn.getUtf8Decoding() : null;
		boolean tls13 = TlsUtils.isTLSv13(parameters.getNegotiatedVersion());
		this.protocolVersion = tls13 ? "TLSv1.3" : "TLSv1.2";
		// No client certificate: a listener that asks for them keeps its connections off this handshake.
		this.sslInfo = TlsSessionInfo.of(parameters.getSessionID(), null);
		KernelTlsCipher cipher = tls13 ? KernelTlsCipher.ofCode(parameters.getCipherSuite()) : null;
		if (!tls13) {
			this.userspaceReason = "TLS 1.2: the kernel takes TLS 1.3 connections only here";
		}
		else if (cipher == null) {
			this.userspaceReason = String.format("cipher suite 0x%04x is not one the kernel seals",
					parameters.getCipherSuite());
		}
		else if (this.protocol.getApplicationDataLimit() < MAX_PLAINTEXT) {
			this.userspaceReason = "the client limited records to " + this.protocol.getApplicationDataLimit()
					+ " bytes, and the kernel seals records of up to " + MAX_PLAINTEXT;
		}
		else {
			this.sendingKeys = KeySchedule.trafficKeys(cipher,
					this.server.copy(parameters.getTrafficSecretServer()));
		}
		ctx.fireUserEventTriggered(SslHandshakeCompletionEvent.SUCCESS);
		handOver(ctx);
	}

	/** Hand the sending to the kernel once every record sealed here has been written to the socket. */
	private void handOver(ChannelHandlerContext ctx) {
		if (this.sendingKeys == null || this.kernelSends || this.waitingForWrites) {
			return;
		}
		if (this.sendingKeysChanged) {
			forgetSendingKeys("a KeyUpdate changed the sending keys before the kernel could take them");
			return;
		}
		ChannelFuture last = this.lastSealedWrite;
		if (last != null && !last.isDone()) {
			this.waitingForWrites = true;
			last.addListener(future -> {
				this.waitingForWrites = false;
				if (future.isSuccess()) {
					handOver(ctx);
				}
				else {
					forgetSendingKeys("a write failed before the kernel could take the connection over");
				}
			});
			return;
		}
		TrafficKeys keys = this.sendingKeys;
		this.sendingKeys = null;
		try {
			String refusal = this.kernel.engage(ctx.channel(), keys, this.sealedSinceHandshake.records());
			if (refusal == null) {
				this.kernelSends = true;
			}
			else {
				this.userspaceReason = refusal;
			}
		}
		finally {
			keys.destroy();
		}
	}

	private void forgetSendingKeys(String reason) {
		if (this.sendingKeys != null) {
			this.sendingKeys.destroy();
			this.sendingKeys = null;
			this.userspaceReason = reason;
		}
	}

	@Override
	public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
		if (this.kernelSends) {
			ctx.write(msg, promise);
			return;
		}
		if (!(msg instanceof ByteBuf data)) {
			ReferenceCountUtil.release(msg);
			promise.tryFailure(new UnsupportedOperationException("a " + msg.getClass().getSimpleName()
					+ " cannot be sealed in user space; only bytes can, until the kernel seals this connection"));
			return;
		}
		if (!this.handshaken) {
			data.release();
			promise.tryFailure(new IllegalStateException("nothing can be sent before the TLS handshake is complete"));
			return;
		}
		try {
			if (data.isReadable()) {
				byte[] plain = ByteBufUtil.getBytes(data);
				this.protocol.writeApplicationData(plain, 0, plain.length);
			}
		}
		catch (IOException | RuntimeException ex) {
			promise.tryFailure(ex);
			fail(ctx, ex);
			return;
		}
		finally {
			data.release();
		}
		sendSealed(ctx, promise, false);
		handOver(ctx);
	}

	@Override
	public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
		forgetSendingKeys("the connection closed before the kernel could take it over");
		if (!this.kernelSends && this.started && !this.protocol.isClosed()) {
			try {
				this.protocol.close();
			}
			catch (IOException ex) {
				logger.debug("{}: sealing close_notify failed", ctx.channel(), ex);
			}
			sendSealed(ctx, null, true);
		}
		ctx.close(promise);
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) {
		forgetSendingKeys("the connection closed before the kernel could take it over");
		ctx.fireChannelInactive();
	}

	/**
	 * Write what Bouncy Castle has sealed: handshake messages, application data, alerts.
	 * @param promise completed by the write, or {@code null}
	 * @param flush whether to flush it now
	 */
	private void sendSealed(ChannelHandlerContext ctx, ChannelPromise promise, boolean flush) {
		int available = this.protocol.getAvailableOutputBytes();
		if (available == 0) {
			if (promise != null) {
				promise.trySuccess();
			}
			return;
		}
		byte[] sealed = new byte[available];
		this.protocol.readOutput(sealed, 0, available);
		if (this.handshaken) {
			this.sealedSinceHandshake.add(sealed, 0, available);
		}
		if (this.kernelSends) {
			// A close_notify or a KeyUpdate sealed here would reuse a sequence number the kernel has used.
			logger.debug("{}: dropping {} bytes sealed in user space after the kernel took the connection over; "
					+ "closing it", ctx.channel(), available);
			if (promise != null) {
				promise.tryFailure(new IllegalStateException("the kernel seals this connection's records"));
			}
			ctx.close();
			return;
		}
		// A void promise never completes, and the hand-over waits for this write.
		ChannelPromise written = (promise != null) ? promise.unvoid() : ctx.newPromise();
		this.lastSealedWrite = written;
		ctx.write(Unpooled.wrappedBuffer(sealed), written);
		if (flush) {
			ctx.flush();
		}
	}

	private void fail(ChannelHandlerContext ctx, Throwable cause) {
		if (logger.isDebugEnabled()) {
			String alert = (cause instanceof TlsFatalAlert fatal)
					? AlertDescription.getText(fatal.getAlertDescription()) : cause.toString();
			logger.debug("{}: TLS failed ({})", ctx.channel(), alert, cause);
		}
		if (!this.kernelSends) {
			// The alert Bouncy Castle raised, sealed or not, goes out before the close.
			sendSealed(ctx, null, true);
		}
		if (!this.handshaken) {
			ctx.fireUserEventTriggered(new SslHandshakeCompletionEvent(cause));
		}
		ctx.close();
	}

	/** Bouncy Castle's server protocol, told when a client's KeyUpdate asks for one back. */
	private final class Protocol extends TlsServerProtocol {

		@Override
		protected void receive13KeyUpdate(ByteArrayInputStream message) throws IOException {
			byte[] body = message.readAllBytes();
			boolean requested = body.length == 1 && body[0] == KeyUpdateRequest.update_requested;
			super.receive13KeyUpdate(new ByteArrayInputStream(body));
			if (requested) {
				if (KernelTlsHandler.this.kernelSends) {
					KernelTlsHandler.this.keyUpdateRequested = true;
				}
				else {
					// Bouncy Castle answers with a KeyUpdate of its own: the keys taken at the handshake are stale.
					KernelTlsHandler.this.sendingKeysChanged = true;
				}
			}
		}

		@Override
		protected void send13KeyUpdate(boolean updateRequested) throws IOException {
			KernelTlsHandler.this.sendingKeysChanged = true;
			super.send13KeyUpdate(updateRequested);
		}

	}

}
