package io.khamsin.container.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;

/**
 * The TLS implementation chosen for a configuration, once per build, and why.
 *
 * @param provider the Netty provider
 * @param name the implementation's name for the start line, e.g. {@code BoringSSL} or {@code JDK}
 * @param fallbackReason why {@link TlsProvider#AUTO} did not get BoringSSL, or {@code null}
 */
record ResolvedProvider(SslProvider provider, String name, String fallbackReason) {

	boolean openSsl() {
		return this.provider != SslProvider.JDK;
	}

	static ResolvedProvider resolve(TlsProvider requested) {
		return resolve(requested, (requested != TlsProvider.JDK) ? openSslUnavailable() : null);
	}

	/**
	 * The provider for a request, knowing whether BoringSSL loaded.
	 * @param requested the requested provider
	 * @param unavailable why BoringSSL is not available, or {@code null} when it is
	 */
	static ResolvedProvider resolve(TlsProvider requested, String unavailable) {
		if (requested == TlsProvider.JDK) {
			return jdk(null);
		}
		if (unavailable == null) {
			return new ResolvedProvider(SslProvider.OPENSSL, OpenSsl.versionString(), null);
		}
		if (requested == TlsProvider.OPENSSL) {
			throw new IllegalStateException("khamsin.tls.provider=openssl, but " + unavailable
					+ ". Put netty-tcnative-boringssl-static (with the classifier of this platform, "
					+ System.getProperty("os.name") + " " + System.getProperty("os.arch")
					+ ") on the class path, or set khamsin.tls.provider=auto or jdk");
		}
		return jdk(unavailable);
	}

	private static ResolvedProvider jdk(String reason) {
		return new ResolvedProvider(SslProvider.JDK, "JDK " + Runtime.version().feature(), reason);
	}

	private static String openSslUnavailable() {
		if (!OpenSsl.isAvailable()) {
			Throwable cause = OpenSsl.unavailabilityCause();
			return "netty-tcnative did not load"
					+ ((cause != null) ? " (" + rootMessage(cause) + ")" : "");
		}
		if (!OpenSsl.supportsKeyManagerFactory()) {
			return OpenSsl.versionString() + " cannot take its keys from a KeyManagerFactory";
		}
		return null;
	}

	private static String rootMessage(Throwable cause) {
		Throwable root = cause;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

}
