package io.khamsin.benchmark.load;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.internal.tcnative.SSL;

/**
 * The generator's TLS client: TLS 1.3 only, on OpenSSL (netty-tcnative's BoringSSL) when it loads, trusting the
 * run's self-signed certificate. One context serves a whole load run, so that with {@link #resuming()} each new
 * connection resumes the session of an earlier one (the context's client session cache, keyed by host and port),
 * and with {@link #fullHandshakes()} none does. Whether a handshake was resumed is read from the engine, so a run
 * counts what the server really did.
 */
public final class ClientTls {

	private final SslContext context;

	private final boolean resume;

	private ClientTls(boolean resume) {
		this.resume = resume;
		try {
			this.context = SslContextBuilder.forClient()
				.sslProvider(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK)
				.protocols("TLSv1.3")
				.trustManager(InsecureTrustManagerFactory.INSTANCE)
				.build();
		}
		catch (SSLException ex) {
			throw new IllegalStateException("cannot make the generator's TLS client: " + ex.getMessage(), ex);
		}
		if (!resume && this.context.sessionContext() instanceof OpenSslSessionContext openssl) {
			openssl.setSessionCacheEnabled(false);
		}
	}

	/** @return a client whose every connection makes a full handshake */
	public static ClientTls fullHandshakes() {
		return new ClientTls(false);
	}

	/** @return a client whose connections resume an earlier connection's session where the server allows */
	public static ClientTls resuming() {
		return new ClientTls(true);
	}

	/** @return whether connections resume sessions */
	public boolean resume() {
		return this.resume;
	}

	/**
	 * @return the TLS handler of a new connection to {@code host:port}; without resumption it is not told the peer,
	 * by which both providers key their client session caches
	 */
	SslHandler newHandler(ByteBufAllocator allocator, String host, int port) {
		return this.resume ? this.context.newHandler(allocator, host, port) : this.context.newHandler(allocator);
	}

	/**
	 * @param engine the engine of a connection whose handshake has completed
	 * @return whether the handshake resumed a session; {@code false} when the engine cannot tell (the JDK's)
	 */
	static boolean resumed(SSLEngine engine) {
		if (engine instanceof ReferenceCountedOpenSslEngine openssl) {
			return SSL.isSessionReused(openssl.sslPointer());
		}
		return false;
	}

	/** @return the provider in use, for reports */
	public static String provider() {
		return OpenSsl.isAvailable() ? OpenSsl.versionString() : "the JDK";
	}

}
