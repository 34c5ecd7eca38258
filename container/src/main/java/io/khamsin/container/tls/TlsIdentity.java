package io.khamsin.container.tls;

import io.netty.handler.ssl.ReferenceCountedOpenSslContext;
import io.netty.handler.ssl.SslContext;

/**
 * One identity as it serves: its material, the context built from it, and the implementation that runs it.
 *
 * @param material the key, chain and trust
 * @param context the context built and proved from it
 * @param providerName the implementation, e.g. {@code BoringSSL} or {@code JDK 17}
 * @param jdkReason why the JDK runs this identity although BoringSSL runs the others, or {@code null}
 * @param ticketKeys the keys of its session tickets, its own
 */
record TlsIdentity(TlsMaterial material, SslContext context, String providerName, String jdkReason,
		TicketKeys ticketKeys) {

	/** @return whether BoringSSL runs this identity's handshakes */
	boolean openSsl() {
		return this.context instanceof ReferenceCountedOpenSslContext;
	}

	/** @return the implementation and, when the JDK runs it instead of BoringSSL, why */
	String describeProvider() {
		return this.providerName + ((this.jdkReason != null) ? " (" + this.jdkReason + ")" : "");
	}

}
