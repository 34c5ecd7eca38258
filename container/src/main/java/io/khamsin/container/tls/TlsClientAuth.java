package io.khamsin.container.tls;

/**
 * Whether a client presents a certificate during the handshake ({@code server.ssl.client-auth}).
 */
public enum TlsClientAuth {

	/** No certificate is asked for. */
	NONE,

	/** A certificate is asked for; a client without one is still served, one with an untrusted one is not. */
	WANT,

	/** A trusted certificate is required; a client without one fails the handshake. */
	NEED

}
