package io.khamsin.benchmark.target;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a scenario speaks to its targets: HTTP/1.1 in cleartext or over TLS, HTTP/2 in cleartext (prior knowledge,
 * as h2load and Boot's own h2c test speak it) or over TLS (ALPN {@code h2}), HTTP/3 over QUIC. A target is launched for the wire of
 * the scenario it is measured in, and must be seen answering on it before it is measured.
 */
public enum Wire {

	/** HTTP/1.1 in cleartext. */
	HTTP1("http", false, false),

	/** HTTP/1.1 over TLS (1.3 when both sides offer it, which every target here does). */
	HTTPS("https", true, false),

	/** HTTP/2 in cleartext, with prior knowledge. */
	H2C("http", false, true),

	/** HTTP/2 over TLS, chosen by ALPN. */
	H2("https", true, true),

	/** HTTP/3 over QUIC (UDP, always TLS), on the port number of the target's TLS port. */
	H3("https", true, false);

	/** The wires over TCP: what a server that does not speak HTTP/3 can be measured on. */
	public static final Set<Wire> TCP = Collections.unmodifiableSet(EnumSet.of(HTTP1, HTTPS, H2C, H2));

	private final String scheme;

	private final boolean tls;

	private final boolean http2;

	Wire(String scheme, boolean tls, boolean http2) {
		this.scheme = scheme;
		this.tls = tls;
		this.http2 = http2;
	}

	/** @return the URI scheme */
	public String scheme() {
		return this.scheme;
	}

	/** @return whether the wire is TLS */
	public boolean tls() {
		return this.tls;
	}

	/** @return whether the wire is HTTP/2 */
	public boolean http2() {
		return this.http2;
	}

	/** @return whether the wire is HTTP/3 */
	public boolean http3() {
		return this == H3;
	}

}
