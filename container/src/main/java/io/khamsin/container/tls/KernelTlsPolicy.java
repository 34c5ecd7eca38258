package io.khamsin.container.tls;

import java.net.InetSocketAddress;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;

import io.khamsin.container.egress.KernelTlsMode;

/**
 * Which TLS connections of a listener start on the handshake that can hand their sending to the kernel
 * ({@link KernelTlsHandler}) instead of the listener's provider, from {@code khamsin.egress.ktls} and what the
 * machine offers ({@link KernelTlsHost}). What holds for the whole listener is decided once, at start, and said in
 * {@link #describe()}; what depends on the connection (its transport, the identity SNI chose, the interface it
 * leaves by) is decided when the SNI stage has read the ClientHello.
 * <p>
 * {@code auto} takes a connection only when the kernel offers the {@code tls} ULP and the connection's interface
 * seals TLS records itself: software kernel TLS on loopback or a virtual NIC is slower than user space. {@code on}
 * takes every connection it can, even on a kernel that will refuse, which then stays on Bouncy Castle in user
 * space, slower than BoringSSL; the start line warns of that.
 */
final class KernelTlsPolicy {

	/** The most identities kept read; more only after many reloads of a few. */
	private static final int MAX_IDENTITIES = 64;

	private final KernelTlsMode mode;

	private final KernelTlsHost host;

	private final List<String> applicationProtocols;

	private final boolean tls12;

	private final String listenerRefusal;

	private final Map<TlsMaterial, Identity> identities = new ConcurrentHashMap<>();

	private KernelTlsPolicy(KernelTlsMode mode, KernelTlsHost host, List<String> applicationProtocols, boolean tls12,
			String listenerRefusal) {
		this.mode = mode;
		this.host = host;
		this.applicationProtocols = applicationProtocols;
		this.tls12 = tls12;
		this.listenerRefusal = listenerRefusal;
	}

	/**
	 * The policy of a listener on this machine.
	 * @param config the listener's TLS configuration (with the ALPN list it offers)
	 * @return the policy
	 */
	static KernelTlsPolicy of(TlsConfig config) {
		KernelTlsHost host = (config.kernelTls() == KernelTlsMode.OFF) ? null
				: new KernelTlsHost.Machine(config.kernelTls() == KernelTlsMode.AUTO);
		return of(config, host);
	}

	/**
	 * The policy of a listener on a given host.
	 * @param config the listener's TLS configuration (with the ALPN list it offers)
	 * @param host what the machine offers, or {@code null} when the mode is {@code off}
	 * @return the policy
	 */
	static KernelTlsPolicy of(TlsConfig config, KernelTlsHost host) {
		return new KernelTlsPolicy(config.kernelTls(), host, config.alpnProtocols(),
				config.protocols().contains("TLSv1.2"), listenerRefusal(config, host));
	}

	private static String listenerRefusal(TlsConfig config, KernelTlsHost host) {
		if (config.kernelTls() == KernelTlsMode.OFF) {
			return "khamsin.egress.ktls is off";
		}
		if (!config.protocols().contains("TLSv1.3")) {
			return "TLS 1.3 is not offered, and the kernel takes TLS 1.3 connections only";
		}
		if (config.clientAuth() != TlsClientAuth.NONE) {
			return "clients are asked for certificates (client-auth " + config.clientAuth().name().toLowerCase(Locale.ROOT)
					+ "), which the kernel TLS handshake does not do";
		}
		if (!config.ciphers().equals(TlsConfig.DEFAULT_CIPHERS)) {
			return "cipher suites are configured, and the kernel TLS handshake offers only its own AEAD suites";
		}
		if (config.kernelTls() == KernelTlsMode.AUTO && host.ulpRefusal() != null) {
			return host.ulpRefusal();
		}
		return null;
	}

	/** @return whether some connections may start on the kernel TLS handshake */
	boolean engages() {
		return this.listenerRefusal == null;
	}

	/**
	 * One line for the start log and {@code /actuator/khamsin}: the mode, and what it does on this machine.
	 * @return the line
	 */
	String describe() {
		String setting = "khamsin.egress.ktls=" + this.mode.name().toLowerCase(Locale.ROOT);
		if (this.listenerRefusal != null) {
			return setting + ": TLS stays in user space (" + this.listenerRefusal + ")";
		}
		if (this.mode == KernelTlsMode.AUTO) {
			return setting + ": TLS 1.3 connections on an interface with TLS TX offload hand their sending to the "
					+ "kernel; the others stay in user space";
		}
		String ulp = this.host.ulpRefusal();
		if (ulp != null) {
			return setting + ": every TLS 1.3 connection runs its handshake in Bouncy Castle to try kernel TLS, "
					+ "but " + ulp + ", so each stays in user space, slower than on the listener's provider; "
					+ "use auto or off";
		}
		return setting + ": TLS 1.3 connections hand their sending to the kernel after the handshake";
	}

	/**
	 * Why a connection stays on the listener's provider, or {@code null} when it starts on the kernel TLS
	 * handshake. Called on its event loop once SNI chose its identity.
	 * @param channel the connection
	 * @param material the identity chosen
	 * @return the reason, or {@code null}
	 */
	String refusal(Channel channel, TlsMaterial material) {
		if (this.listenerRefusal != null) {
			return this.listenerRefusal;
		}
		if (!(channel instanceof UnixChannel)) {
			return "the connection runs on NIO, which cannot set the socket options kernel TLS needs (use epoll or "
					+ "io_uring)";
		}
		Identity identity = identity(material);
		if (identity.refusal() != null) {
			return identity.refusal();
		}
		if (this.mode == KernelTlsMode.AUTO) {
			if (!(channel.localAddress() instanceof InetSocketAddress local)) {
				return "the connection has no IP address";
			}
			return this.host.offloadRefusal(local.getAddress());
		}
		return null;
	}

	/**
	 * The handler of a connection {@link #refusal} took.
	 * @param material the identity chosen
	 * @return the handler
	 */
	KernelTlsHandler newHandler(TlsMaterial material) {
		Identity identity = identity(material);
		return new KernelTlsHandler(new KernelTlsServer(KernelTlsHandler.CRYPTO, identity.key(), identity.chain(),
				this.applicationProtocols, this.tls12), KernelTlsSocket.INSTANCE);
	}

	private Identity identity(TlsMaterial material) {
		if (this.identities.size() > MAX_IDENTITIES) {
			// Materials replaced by reloads are forgotten with the others; those in force are read again.
			this.identities.clear();
		}
		return this.identities.computeIfAbsent(material, Identity::of);
	}

	/** An identity's key and chain, read once, or why the kernel TLS handshake cannot serve it. */
	private record Identity(PrivateKey key, List<X509Certificate> chain, String refusal) {

		static Identity of(TlsMaterial material) {
			if (!material.protocols().isEmpty() && !material.protocols().contains("TLSv1.3")) {
				return new Identity(null, null, material.description() + " does not offer TLS 1.3");
			}
			if (!material.ciphers().isEmpty()) {
				return new Identity(null, null, material.description() + " sets its own cipher suites");
			}
			PrivateKey key = material.privateKey();
			List<X509Certificate> chain = material.certificateChain();
			if (key == null || chain.isEmpty()) {
				return new Identity(null, null, material.description() + " holds no key with a certificate chain");
			}
			String refusal = KernelTlsServer.keyRefusal(key);
			return new Identity(key, chain, (refusal != null) ? material.description() + ": " + refusal : null);
		}

	}

}
