package io.khamsin.boot.tls;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.web.server.Ssl;
import org.springframework.util.StringUtils;

import io.khamsin.container.tls.DevelopmentCertificate;
import io.khamsin.container.tls.TlsClientAuth;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsMaterial;

/**
 * The engine's {@link TlsConfig} of a Boot web server: the {@link SslBundle} of {@code server.ssl.*} (the
 * factory's {@code getSslBundle()}, a named bundle or the key and trust stores of {@code server.ssl} itself), one
 * bundle per {@code server.ssl.server-name-bundles} entry, {@code server.ssl.client-auth}, and
 * {@code khamsin.tls.*}; or, with {@code khamsin.tls.self-signed=true} and no certificate configured, a
 * development certificate.
 */
public final class BootTlsConfig {

	private BootTlsConfig() {
	}

	/**
	 * The TLS configuration a factory asks for, or {@code null} for a cleartext server. The bundles are read
	 * only when SSL is enabled, so that Boot's errors (an unknown key alias, SSL enabled with no key store, a
	 * missing bundle) fail the start as they do on Boot's own containers.
	 * @param ssl the factory's {@code getSsl()}, or {@code null}
	 * @param bundle the factory's {@code getSslBundle()}
	 * @param serverNameBundles the factory's {@code getServerNameSslBundles()}
	 * @param properties {@code khamsin.tls.*}
	 * @return the configuration, or {@code null}
	 */
	public static TlsConfig of(Ssl ssl, Supplier<SslBundle> bundle, Supplier<Map<String, SslBundle>> serverNameBundles,
			KhamsinTlsProperties properties) {
		if (properties.selfSigned() && !hasCertificate(ssl)) {
			return selfSigned(ssl, properties);
		}
		if (!Ssl.isEnabled(ssl)) {
			return null;
		}
		return from(ssl, bundle.get(), serverNameBundles.get(), properties);
	}

	/**
	 * The configuration of SSL bundles already read.
	 * @param ssl {@code server.ssl}, enabled
	 * @param bundle its bundle
	 * @param serverNameBundles the bundle of each server name
	 * @param properties {@code khamsin.tls.*}
	 * @return the configuration
	 */
	public static TlsConfig from(Ssl ssl, SslBundle bundle, Map<String, SslBundle> serverNameBundles,
			KhamsinTlsProperties properties) {
		TlsMaterial material = SslBundleMaterial.of(bundle, describe(ssl.getBundle()));
		Map<String, TlsMaterial> named = new LinkedHashMap<>();
		Map<String, String> bundleNames = new LinkedHashMap<>();
		ssl.getServerNameBundles().forEach((entry) -> bundleNames.put(entry.serverName(), entry.bundle()));
		serverNameBundles.forEach((serverName, serverNameBundle) -> named.put(serverName,
				SslBundleMaterial.of(serverNameBundle, describe(bundleNames.get(serverName)) + " of server name " + serverName)));
		return properties.applyTo(TlsConfig.builder(material))
			.serverNames(named)
			.clientAuth(clientAuth(ssl.getClientAuth()))
			.build();
	}

	static TlsConfig selfSigned(Ssl ssl, KhamsinTlsProperties properties) {
		TlsClientAuth clientAuth = Ssl.isEnabled(ssl) ? clientAuth(ssl.getClientAuth()) : TlsClientAuth.NONE;
		return properties.applyTo(TlsConfig.builder(DevelopmentCertificate.create().material()))
			.clientAuth(clientAuth)
			.build();
	}

	/**
	 * Whether {@code server.ssl} names a certificate: a bundle, a key store, a PEM certificate or a PKCS#11 store.
	 * @param ssl {@code server.ssl}, or {@code null}
	 * @return whether it does
	 */
	static boolean hasCertificate(Ssl ssl) {
		return Ssl.isEnabled(ssl) && (StringUtils.hasText(ssl.getBundle()) || ssl.getKeyStore() != null
				|| ssl.getCertificate() != null || "PKCS11".equals(ssl.getKeyStoreType()));
	}

	static String describe(String bundleName) {
		return StringUtils.hasText(bundleName) ? "SSL bundle '" + bundleName + "'" : "server.ssl";
	}

	static TlsClientAuth clientAuth(Ssl.ClientAuth clientAuth) {
		return Ssl.ClientAuth.map(clientAuth, TlsClientAuth.NONE, TlsClientAuth.WANT, TlsClientAuth.NEED);
	}

}
