package io.khamsin.actuate.endpoint;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.actuate.endpoint.EgressModes.EgressMode;

import static org.assertj.core.api.Assertions.assertThat;

class EgressModesTests {

	@TempDir
	Path dir;

	@Test
	void kernelTlsWithoutTheTlsModuleSaysHowToLoadIt() throws Exception {
		Path ulps = Files.writeString(this.dir.resolve("tcp_available_ulp"), "mptcp\n");
		EgressMode ktls = ktls(ulps);
		assertThat(ktls.available()).isFalse();
		assertThat(ktls.reason()).contains("tls module is not loaded", "'mptcp'", "modprobe tls");
	}

	@Test
	void kernelTlsWithTheTlsModuleWaitsForKhamsinTls() throws Exception {
		Path ulps = Files.writeString(this.dir.resolve("tcp_available_ulp"), "mptcp tls\n");
		EgressMode ktls = ktls(ulps);
		assertThat(ktls.available()).isFalse();
		assertThat(ktls.reason()).contains("module is loaded", "does not serve TLS yet");
	}

	@Test
	void anUnreadableListSaysSupportIsUnknown() {
		assertThat(ktls(this.dir.resolve("missing")).reason()).contains("could not be read");
	}

	@Test
	void sendfileAndUserspaceAreAvailable() {
		assertThat(EgressModes.detect(this.dir.resolve("missing"))).filteredOn(EgressMode::available)
			.extracting(EgressMode::mode)
			.containsExactly("sendfile", "userspace");
	}

	private static EgressMode ktls(Path ulps) {
		return EgressModes.detect(ulps).stream().filter((mode) -> mode.mode().equals("ktls")).findFirst().orElseThrow();
	}

}
