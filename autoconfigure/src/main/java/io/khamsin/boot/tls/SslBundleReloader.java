package io.khamsin.boot.tls;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.Ssl;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

import io.khamsin.container.tls.TlsContexts;

/**
 * Hands an updated SSL bundle ({@code spring.ssl.bundle.*.reload-on-update=true}) to the engine, as Boot's
 * containers register for {@code server.ssl.bundle} and each {@code server.ssl.server-name-bundles} entry: the
 * bundle's new material is swapped in for connections that arrive afterwards. Material that cannot serve (a
 * certificate file caught half-written, a key that does not match) is logged and the previous one keeps serving.
 */
public final class SslBundleReloader {

	private static final Logger logger = LoggerFactory.getLogger(SslBundleReloader.class);

	private SslBundleReloader() {
	}

	/**
	 * Register the update handlers of the bundles {@code server.ssl} names.
	 * @param ssl {@code server.ssl}
	 * @param bundles the factory's {@code getSslBundles()}
	 * @param contexts the contexts to update
	 */
	public static void register(Ssl ssl, SslBundles bundles, TlsContexts contexts) {
		if (!Ssl.isEnabled(ssl)) {
			return;
		}
		register(null, ssl.getBundle(), bundles, contexts);
		ssl.getServerNameBundles()
			.forEach((entry) -> register(entry.serverName(), entry.bundle(), bundles, contexts));
	}

	private static void register(String serverName, String bundleName, SslBundles bundles, TlsContexts contexts) {
		if (!StringUtils.hasText(bundleName)) {
			return;
		}
		Assert.state(bundles != null, "'sslBundles' must not be null");
		bundles.addBundleUpdateHandler(bundleName, (bundle) -> update(serverName, bundleName, bundle, contexts));
	}

	static void update(String serverName, String bundleName, SslBundle bundle, TlsContexts contexts) {
		String description = BootTlsConfig.describe(bundleName)
				+ ((serverName != null) ? " of server name " + serverName : "");
		try {
			contexts.update(serverName, SslBundleMaterial.of(bundle, description));
		}
		catch (RuntimeException ex) {
			logger.error("khamsin keeps serving the previous certificate of {}: its update cannot serve ({}). "
					+ "Check the bundle's files; the next update is tried again", description, ex.getMessage());
		}
	}

}
