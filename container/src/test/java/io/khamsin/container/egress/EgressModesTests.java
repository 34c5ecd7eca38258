package io.khamsin.container.egress;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EgressModesTests {

	@Test
	void kernelTlsSaysWhatItDoesOnTheTlsListener() {
		EgressMode refused = mode(EgressModes.of("epoll", "sendfile", true,
				new EgressModes.KernelTls(false, "khamsin.egress.ktls=auto: TLS stays in user space (no tls ULP)")),
				"ktls");
		assertThat(refused.available()).isFalse();
		assertThat(refused.reason()).contains("no tls ULP");
		EgressMode engaged = mode(EgressModes.of("epoll", "sendfile", false,
				new EgressModes.KernelTls(true, "khamsin.egress.ktls=on: TLS 1.3 connections hand their sending")),
				"ktls");
		assertThat(engaged.available()).isTrue();
	}

	@Test
	void withoutATlsListenerThereIsNoKernelTls() {
		EgressMode ktls = mode(EgressModes.of("nio", "sendfile", true, null), "ktls");
		assertThat(ktls.available()).isFalse();
		assertThat(ktls.reason()).isEqualTo("no listener serves TLS");
	}

	@Test
	void plainListenersAllowFileBodiesByTheKernelAndEveryConnectionUserspace() {
		List<EgressMode> modes = EgressModes.of("nio", "sendfile", true, null);
		assertThat(modes).filteredOn(EgressMode::available)
			.extracting(EgressMode::mode)
			.containsExactly("sendfile", "userspace");
		assertThat(mode(modes, "sendfile").reason()).contains("sendfile on nio");
	}

	@Test
	void onlyTlsListenersLeaveFileBodiesToUserspaceWithoutKernelTls() {
		List<EgressMode> modes = EgressModes.of("nio", "sendfile", false, new EgressModes.KernelTls(false, "off"));
		assertThat(modes).filteredOn(EgressMode::available).extracting(EgressMode::mode).containsExactly("userspace");
	}

	@Test
	void eachFileBodyLeavesByTheKernelOnlyWhereNothingNeedsItsBytes() {
		assertThat(FileEgress.choose(false, TlsSealing.PLAIN, false)).isEqualTo(EgressReason.PLAIN_CONNECTION);
		assertThat(FileEgress.choose(false, TlsSealing.KERNEL, false)).isEqualTo(EgressReason.KERNEL_TLS);
		assertThat(FileEgress.choose(false, TlsSealing.USERSPACE, false)).isEqualTo(EgressReason.TLS_IN_USERSPACE);
		assertThat(FileEgress.choose(false, TlsSealing.KERNEL_REFUSED, false))
			.isEqualTo(EgressReason.KERNEL_TLS_REFUSED);
		for (TlsSealing sealing : TlsSealing.values()) {
			assertThat(FileEgress.choose(true, sealing, false)).isEqualTo(EgressReason.PROTOCOL_FRAMES);
			assertThat(FileEgress.choose(false, sealing, true)).isEqualTo(EgressReason.PAGE_CACHE_COPY);
			assertThat(FileEgress.choose(true, sealing, true)).isEqualTo(EgressReason.PAGE_CACHE_COPY);
		}
		assertThat(EgressReason.values())
			.filteredOn((reason) -> reason != EgressReason.PLAIN_CONNECTION && reason != EgressReason.KERNEL_TLS)
			.extracting(EgressReason::path)
			.containsOnly(EgressPath.USERSPACE);
		assertThat(EgressReason.KERNEL_TLS.path()).isEqualTo(EgressPath.SENDFILE);
	}

	private static EgressMode mode(List<EgressMode> modes, String mode) {
		return modes.stream().filter((egress) -> egress.mode().equals(mode)).findFirst().orElseThrow();
	}

}
