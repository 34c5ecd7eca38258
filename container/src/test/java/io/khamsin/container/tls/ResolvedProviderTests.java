package io.khamsin.container.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The choice of TLS implementation: BoringSSL when it loads, else the JDK with the reason, and a clear failure when
 * BoringSSL was required.
 */
class ResolvedProviderTests {

	@Test
	void autoTakesBoringSslWhereNettyTcnativeLoads() {
		assertThat(OpenSsl.isAvailable()).as("netty-tcnative-boringssl-static loads on linux-x86_64").isTrue();
		ResolvedProvider provider = ResolvedProvider.resolve(TlsProvider.AUTO);
		assertThat(provider.provider()).isEqualTo(SslProvider.OPENSSL);
		assertThat(provider.name()).startsWith("BoringSSL");
		assertThat(provider.fallbackReason()).isNull();
	}

	@Test
	void autoFallsBackToTheJdkAndSaysWhy() {
		ResolvedProvider provider = ResolvedProvider.resolve(TlsProvider.AUTO,
				"netty-tcnative did not load (UnsatisfiedLinkError: no netty_tcnative_linux_riscv64)");
		assertThat(provider.provider()).isEqualTo(SslProvider.JDK);
		assertThat(provider.name()).isEqualTo("JDK " + Runtime.version().feature());
		assertThat(provider.fallbackReason()).contains("UnsatisfiedLinkError");
	}

	@Test
	void openSslThatDoesNotLoadFailsTheStartAndSaysWhatToDo() {
		assertThatIllegalStateException()
			.isThrownBy(() -> ResolvedProvider.resolve(TlsProvider.OPENSSL, "netty-tcnative did not load (x)"))
			.withMessageStartingWith("khamsin.tls.provider=openssl, but netty-tcnative did not load (x)")
			.withMessageContaining("netty-tcnative-boringssl-static")
			.withMessageContaining("khamsin.tls.provider=auto or jdk");
	}

	@Test
	void jdkIsTakenWhenAsked() {
		assertThat(ResolvedProvider.resolve(TlsProvider.JDK).provider()).isEqualTo(SslProvider.JDK);
		assertThat(TlsContexts.build(TlsConfig.builder(io.khamsin.container.test.TestCertificates.create()
			.server("localhost")
			.material("localhost")).provider(TlsProvider.JDK).build()).providerDescription()).startsWith("JDK ");
	}

}
