package io.khamsin.container.egress;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.transport.Transport;
import io.khamsin.container.transport.ListenerInfo;
import io.khamsin.container.transport.ResolvedTransport;
import io.khamsin.container.transport.TransportResolver;

import static org.assertj.core.api.Assertions.assertThat;

class EgressModesTests {

	private static final ResolvedTransport NIO = TransportResolver.resolve(Transport.NIO);

	private static final ListenerInfo PLAIN = new ListenerInfo(new InetSocketAddress(8080), 1, List.of("http/1.1"),
			ListenerInfo.NO_TLS);

	private static final ListenerInfo SECURE = new ListenerInfo(new InetSocketAddress(8443), 1, List.of("http/1.1"),
			"JDK");

	@TempDir
	Path dir;

	@Test
	void kernelTlsWithoutTheTlsModuleSaysHowToLoadIt() throws Exception {
		Path ulps = Files.writeString(this.dir.resolve("tcp_available_ulp"), "mptcp\n");
		EgressMode ktls = mode(EgressModes.of(NIO, List.of(PLAIN), ulps), "ktls");
		assertThat(ktls.available()).isFalse();
		assertThat(ktls.reason()).contains("no listener serves TLS", "tls module is not loaded", "'mptcp'",
				"modprobe tls");
	}

	@Test
	void kernelTlsWithTheTlsModuleAndATlsListenerWaitsForKhamsin() throws Exception {
		Path ulps = Files.writeString(this.dir.resolve("tcp_available_ulp"), "mptcp tls\n");
		EgressMode ktls = mode(EgressModes.of(NIO, List.of(PLAIN, SECURE), ulps), "ktls");
		assertThat(ktls.available()).isFalse();
		assertThat(ktls.reason()).contains("does not hand TLS to the kernel yet", "module is loaded");
	}

	@Test
	void anUnreadableListSaysSupportIsUnknown() {
		assertThat(mode(EgressModes.of(NIO, List.of(PLAIN), this.dir.resolve("missing")), "ktls").reason())
			.contains("could not be read");
	}

	@Test
	void plainListenersAllowFileBodiesByTheKernelAndEveryConnectionUserspace() {
		List<EgressMode> modes = EgressModes.of(NIO, List.of(PLAIN), this.dir.resolve("missing"));
		assertThat(modes).filteredOn(EgressMode::available)
			.extracting(EgressMode::mode)
			.containsExactly("sendfile", "userspace");
		assertThat(mode(modes, "sendfile").reason()).contains("sendfile on nio");
	}

	@Test
	void onlyTlsListenersLeaveFileBodiesToUserspace() {
		List<EgressMode> modes = EgressModes.of(NIO, List.of(SECURE), this.dir.resolve("missing"));
		assertThat(modes).filteredOn(EgressMode::available).extracting(EgressMode::mode).containsExactly("userspace");
	}

	private static EgressMode mode(List<EgressMode> modes, String mode) {
		return modes.stream().filter((egress) -> egress.mode().equals(mode)).findFirst().orElseThrow();
	}

}
