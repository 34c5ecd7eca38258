package io.khamsin.container.tls;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.khamsin.container.test.TestCertificates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The TLS configuration's defaults and the settings it refuses, with messages that say what to change.
 */
class TlsConfigTests {

	private static final TlsMaterial material = TestCertificates.create().server("localhost").material("localhost");

	@Test
	void defaultsAreTls13And12StrongSuitesHttp11AndRotatingTickets() {
		TlsConfig config = TlsConfig.builder(material).build();
		assertThat(config.protocols()).containsExactly("TLSv1.3", "TLSv1.2");
		assertThat(config.ciphers()).allSatisfy((cipher) -> assertThat(cipher).matches(
				"TLS_(AES_(128|256)_GCM_SHA(256|384)|CHACHA20_POLY1305_SHA256|ECDHE_(ECDSA|RSA)_WITH_(AES_(128|256)_GCM_SHA(256|384)|CHACHA20_POLY1305_SHA256))"));
		assertThat(config.alpnProtocols()).containsExactly("http/1.1");
		assertThat(config.clientAuth()).isEqualTo(TlsClientAuth.NONE);
		assertThat(config.provider()).isEqualTo(TlsProvider.AUTO);
		assertThat(config.sessionTimeout()).isLessThanOrEqualTo(config.ticketKeyRotation());
		assertThat(config.handshakeTimeout()).isEqualTo(Duration.ofSeconds(10));
		assertThat(config.toBuilder().build()).isEqualTo(config);
	}

	@Test
	void protocolsOlderThanTls12AreRefusedWithTheReason() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TlsConfig.builder(material).protocols(List.of("TLSv1.2", "TLSv1.1")).build())
			.withMessage("protocols holds TLSv1.1: khamsin speaks TLSv1.3 and TLSv1.2 only (RFC 8996 retired TLS 1.0 and 1.1)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TlsConfig.builder(material.withOptions(List.of("TLSv1"), List.of())).build())
			.withMessageContaining("protocols of localhost holds TLSv1");
	}

	@Test
	void aSessionThatWouldOutliveItsTicketKeyIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TlsConfig.builder(material)
				.sessionTimeout(Duration.ofHours(2))
				.ticketKeyRotation(Duration.ofHours(1))
				.build())
			.withMessageContaining("a ticket would outlive the key that decrypts it");
	}

	@Test
	void serverNamesAreMatchedWithoutRegardToCase() {
		TlsConfig config = TlsConfig.builder(material).serverName("API.Example.COM", material).build();
		assertThat(config.serverNames()).containsOnlyKeys("api.example.com");
	}

	@Test
	void anEmptyAlpnListIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TlsConfig.builder(material).alpnProtocols(List.of()).build())
			.withMessage("alpnProtocols must not be empty");
	}

	@Test
	void namedTls12AndTls13SuitesAreTakenByBothProviders() {
		TlsConfig config = TlsConfig.builder(material)
			.ciphers(List.of("TLS_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"))
			.build();
		for (TlsProvider provider : List.of(TlsProvider.OPENSSL, TlsProvider.JDK)) {
			assertThat(TlsContexts.build(config.toBuilder().provider(provider).build()).select(null).cipherSuites())
				.contains("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
		}
	}

	@Test
	void aMisspeltCipherFailsTheBuildAndNamesTheMaterial() {
		TlsConfig config = TlsConfig.builder(material).ciphers(List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA257")).build();
		for (TlsProvider provider : List.of(TlsProvider.OPENSSL, TlsProvider.JDK)) {
			org.assertj.core.api.Assertions.assertThatIllegalStateException().as(provider.name())
				.isThrownBy(() -> TlsContexts.build(config.toBuilder().provider(provider).build()))
				.withMessageStartingWith("khamsin could not build the TLS context of localhost on ");
		}
	}

}
