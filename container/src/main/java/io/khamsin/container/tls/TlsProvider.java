package io.khamsin.container.tls;

/**
 * Which TLS implementation serves the handshakes and the records ({@code khamsin.tls.provider}).
 */
public enum TlsProvider {

	/** BoringSSL when netty-tcnative loads on this platform, else the JDK's. */
	AUTO,

	/** BoringSSL through netty-tcnative-boringssl-static; the server fails to start when it does not load. */
	OPENSSL,

	/** The JDK's own TLS (JSSE). */
	JDK

}
