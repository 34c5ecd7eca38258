package io.khamsin.container.tls;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.ReferenceCountUtil;

/**
 * Proves that a server context can complete a handshake before it serves: one handshake in memory per protocol,
 * against a JDK client engine, with no socket. A key that does not belong to its certificate, or that the provider
 * cannot sign with, then fails the start (or is refused at reload) instead of every client's handshake. The client
 * trusts any chain: what is proved is the server's signature (CertificateVerify, RFC 8446 section 4.4.3; the
 * ServerKeyExchange of RFC 5246 section 7.4.3), not that clients will trust the certificate.
 */
final class HandshakeProbe {

	private static final int MAX_FLIGHTS = 16;

	private HandshakeProbe() {
	}

	/**
	 * Complete one handshake per protocol with a server context.
	 * @param server the context
	 * @param protocols the protocols it offers
	 * @throws SSLException when a handshake fails, with the protocol and the server's (else the client's) reason
	 */
	static void prove(SslContext server, List<String> protocols) throws SSLException {
		for (String protocol : protocols) {
			SSLEngine serverEngine = server.newEngine(ByteBufAllocator.DEFAULT);
			try {
				SSLEngine client = Client.CONTEXT.createSSLEngine();
				client.setUseClientMode(true);
				client.setEnabledProtocols(new String[] { protocol });
				client.setEnabledCipherSuites(client.getSupportedCipherSuites());
				try {
					handshake(client, serverEngine);
				}
				catch (SSLException ex) {
					SSLException failure = serverFailure(serverEngine, ex);
					throw new SSLException(protocol + ": " + failure.getMessage(), failure);
				}
			}
			finally {
				ReferenceCountUtil.release(serverEngine);
			}
		}
	}

	private static void handshake(SSLEngine client, SSLEngine server) throws SSLException {
		int size = Math.max(client.getSession().getPacketBufferSize(), server.getSession().getPacketBufferSize());
		ByteBuffer toServer = ByteBuffer.allocate(4 * size);
		ByteBuffer toClient = ByteBuffer.allocate(4 * size);
		ByteBuffer application = ByteBuffer.allocate(4 * size);
		ByteBuffer nothing = ByteBuffer.allocate(0);
		client.beginHandshake();
		server.beginHandshake();
		boolean clientDone = false;
		boolean serverDone = false;
		for (int flight = 0; flight < MAX_FLIGHTS && !(clientDone && serverDone); flight++) {
			clientDone |= finished(client, client.wrap(nothing, toServer));
			serverDone |= finished(server, server.wrap(nothing, toClient));
			toServer.flip();
			toClient.flip();
			clientDone |= finished(client, client.unwrap(toClient, application.clear()));
			serverDone |= finished(server, server.unwrap(toServer, application.clear()));
			toServer.compact();
			toClient.compact();
		}
		if (!(clientDone && serverDone)) {
			throw new SSLException("the handshake did not complete within " + MAX_FLIGHTS + " flights");
		}
	}

	/**
	 * The server's own reason when it has one: a server that fails sends its alert first and reports its failure on
	 * the next call, so the client's "fatal alert" would otherwise hide it.
	 */
	private static SSLException serverFailure(SSLEngine server, SSLException failure) {
		try {
			server.wrap(ByteBuffer.allocate(0), ByteBuffer.allocate(server.getSession().getPacketBufferSize()));
		}
		catch (SSLException ex) {
			if (ex != failure) {
				ex.addSuppressed(failure);
				return ex;
			}
		}
		return failure;
	}

	private static boolean finished(SSLEngine engine, SSLEngineResult result) {
		for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
			task.run();
		}
		return result.getHandshakeStatus() == HandshakeStatus.FINISHED
				|| engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING;
	}

	/** The probe's client, made on first use: a context that trusts any chain and sends no certificate. */
	private static final class Client {

		static final SSLContext CONTEXT = create();

		private static SSLContext create() {
			try {
				SSLContext context = SSLContext.getInstance("TLS");
				context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
				return context;
			}
			catch (GeneralSecurityException ex) {
				throw new IllegalStateException("The JDK cannot make a TLS client to prove contexts with", ex);
			}
		}

	}

}
