package io.khamsin.boot.tls;

import java.util.Arrays;
import java.util.List;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslManagerBundle;
import org.springframework.boot.ssl.SslOptions;

import io.khamsin.container.tls.TlsMaterial;

/**
 * Reads one Boot {@link SslBundle} as Boot's own containers do (Reactor Netty's {@code SslServerCustomizer}): the
 * key managers and trust managers of its {@link SslManagerBundle}, so that Boot checks the key alias and reports
 * an unknown one with its own message, and the enabled protocols and ciphers of its {@link SslOptions}. The bundle's
 * {@code protocol} names a JDK {@code SSLContext} algorithm, which Netty's contexts do not take; Reactor Netty
 * ignores it too.
 */
public final class SslBundleMaterial {

	private SslBundleMaterial() {
	}

	/**
	 * The engine's material of a bundle.
	 * @param bundle the bundle
	 * @param description what the bundle is, for log lines and errors, such as {@code SSL bundle 'web'}
	 * @return the material
	 */
	public static TlsMaterial of(SslBundle bundle, String description) {
		SslManagerBundle managers = bundle.getManagers();
		SslOptions options = bundle.getOptions();
		return new TlsMaterial(managers.getKeyManagerFactory(), managers.getTrustManagerFactory(),
				list(options.getEnabledProtocols()), list(options.getCiphers()), description);
	}

	private static List<String> list(String[] values) {
		return (values != null) ? Arrays.asList(values) : List.of();
	}

}
