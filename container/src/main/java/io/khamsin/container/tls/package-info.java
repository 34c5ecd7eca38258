/**
 * TLS for the engine's listeners: an immutable {@link io.khamsin.container.tls.TlsConfig} of key material per
 * identity (the default and one per SNI host name), turned in one place, {@link io.khamsin.container.tls.TlsContexts},
 * into Netty {@code SslContext}s on BoringSSL (netty-tcnative) or the JDK, swapped atomically when material is
 * reloaded; {@link io.khamsin.container.tls.TlsHandlers}, the handlers put in front of a connection's HTTP pipeline
 * (cleartext refusal, SNI and ALPN, the handshake, counted in the figures' {@code TlsFigures} and why one failed
 * read by {@code HandshakeFailures}); and
 * {@link io.khamsin.container.tls.TlsProtocolSelector}, a TLS listener's way to its protocols: the handlers, then
 * the initializer of the protocol ALPN agreed on, with the connection's security ({@code https}, the session as
 * Spring's {@code SslInfo}, who seals its records).
 *
 * <p>The currency of key material is the JDK's: a {@link javax.net.ssl.KeyManagerFactory} for the server's key and
 * chain and a {@link javax.net.ssl.TrustManagerFactory} for client certificates ({@link
 * io.khamsin.container.tls.TlsMaterial}), so other TLS stacks take the same material unchanged. QUIC: for each
 * identity of {@code TlsContexts#materials()}, netty-codec-native-quic's
 * {@code QuicSslContextBuilder.forServer(material.keyManagers(), null).trustManager(material.trustManagers())}
 * with ALPN {@code h3}, joined by {@code QuicSslContextBuilder.buildForServerWithSni} under the same host-name rule
 * as {@code TlsContexts#select}, and rebuilt from {@code TlsContexts#addUpdateListener} on
 * reload.
 *
 * <p>Kernel TLS: {@link io.khamsin.container.tls.KernelTlsHandler} takes the place of Netty's {@code SslHandler} on a
 * connection that may hand its sending to the kernel. Bouncy Castle's low-level TLS ({@code KernelTlsServer}, one
 * identity's {@code TlsMaterial#privateKey()} and chain) runs the handshake; after a TLS 1.3 handshake the sending
 * keys and the count of records sealed ({@code RecordCounter}) go to the kernel by its socket options
 * ({@code KernelTlsSocket}, behind {@code KernelTlsSwitch}). Why not BoringSSL's key log: {@code docs/DESIGN.md}.
 * The SNI stage installs it where {@code KernelTlsPolicy} ({@code khamsin.egress.ktls}, with what
 * {@code KernelTlsHost} reads of the kernel and the interfaces) takes the connection; the handshake recorder, the
 * ALPN stage, {@code TlsSessionInfo} and the connection's security (who seals: the egress choice) read either
 * handler.
 */
package io.khamsin.container.tls;
