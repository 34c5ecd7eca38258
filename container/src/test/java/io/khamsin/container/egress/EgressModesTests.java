package io.khamsin.container.egress;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class EgressModesTests {

	@TempDir
	Path dir;

	@Test
	void kernelTlsWithoutTheTlsModuleSaysHowToLoadIt() throws Exception {
		Path ulps = Files.writeString(this.dir.resolve("tcp_available_ulp"), "mptcp\n");
		EgressMode ktls = mode(EgressModes.of("nio", "sendfile", true, false, ulps), "ktls");
		assertThat(ktls.available()).isFalse();
		assertThat(ktls.reason()).contains("no listener serves TLS", "tls module is not loaded", "'mptcp'",
				"modprobe tls");
	}

	@Test
	void kernelTlsWithTheTlsModuleAndATlsListenerWaitsForKhamsin() throws Exception {
		Path ulps = Files.writeString(this.dir.resolve("tcp_available_ulp"), "mptcp tls\n");
		EgressMode ktls = mode(EgressModes.of("nio", "sendfile", true, true, ulps), "ktls");
		assertThat(ktls.available()).isFalse();
		assertThat(ktls.reason()).contains("does not hand TLS to the kernel yet", "module is loaded");
	}

	@Test
	void anUnreadableListSaysSupportIsUnknown() {
		assertThat(mode(EgressModes.of("nio", "sendfile", true, false, this.dir.resolve("missing")), "ktls").reason())
			.contains("could not be read");
	}

	@Test
	void plainListenersAllowFileBodiesByTheKernelAndEveryConnectionUserspace() {
		List<EgressMode> modes = EgressModes.of("nio", "sendfile", true, false, this.dir.resolve("missing"));
		assertThat(modes).filteredOn(EgressMode::available)
			.extracting(EgressMode::mode)
			.containsExactly("sendfile", "userspace");
		assertThat(mode(modes, "sendfile").reason()).contains("sendfile on nio");
	}

	@Test
	void onlyTlsListenersLeaveFileBodiesToUserspace() {
		List<EgressMode> modes = EgressModes.of("nio", "sendfile", false, true, this.dir.resolve("missing"));
		assertThat(modes).filteredOn(EgressMode::available).extracting(EgressMode::mode).containsExactly("userspace");
	}

	@Test
	void eachFileBodyLeavesByTheKernelOnlyWhereNothingNeedsItsBytes() {
		assertThat(FileEgress.choose(false, false, false)).isEqualTo(EgressReason.PLAIN_CONNECTION);
		assertThat(FileEgress.choose(false, false, false).path()).isEqualTo(EgressPath.SENDFILE);
		assertThat(FileEgress.choose(false, true, false)).isEqualTo(EgressReason.TLS_IN_USERSPACE);
		assertThat(FileEgress.choose(true, false, false)).isEqualTo(EgressReason.PROTOCOL_FRAMES);
		assertThat(FileEgress.choose(true, true, false)).isEqualTo(EgressReason.PROTOCOL_FRAMES);
		assertThat(FileEgress.choose(false, false, true)).isEqualTo(EgressReason.PAGE_CACHE_COPY);
		assertThat(FileEgress.choose(true, true, true)).isEqualTo(EgressReason.PAGE_CACHE_COPY);
		assertThat(EgressReason.values()).filteredOn((reason) -> reason != EgressReason.PLAIN_CONNECTION)
			.extracting(EgressReason::path)
			.containsOnly(EgressPath.USERSPACE);
	}

	private static EgressMode mode(List<EgressMode> modes, String mode) {
		return modes.stream().filter((egress) -> egress.mode().equals(mode)).findFirst().orElseThrow();
	}

}
