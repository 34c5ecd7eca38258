package io.khamsin.container.tls;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.egress.KernelTlsMode;

import static org.assertj.core.api.Assertions.assertThat;

/** Which connections start on the kernel TLS handshake, by mode, configuration and what the machine offers. */
class KernelTlsPolicyTests {

	private static final DevelopmentCertificate CERTIFICATE = DevelopmentCertificate.create();

	@TempDir
	Path dir;

	@Test
	void offRefusesEveryConnectionAndSaysSo() {
		KernelTlsPolicy policy = KernelTlsPolicy.of(config(KernelTlsMode.OFF).build(), null);
		assertThat(policy.engages()).isFalse();
		assertThat(policy.describe()).isEqualTo("khamsin.egress.ktls=off: TLS stays in user space "
				+ "(khamsin.egress.ktls is off)");
	}

	@Test
	void autoWithoutTheUlpStaysInUserSpaceWithTheKernelsReason() {
		KernelTlsPolicy policy = KernelTlsPolicy.of(config(KernelTlsMode.AUTO).build(), host("no tls ULP here", null));
		assertThat(policy.engages()).isFalse();
		assertThat(policy.describe()).contains("auto", "no tls ULP here");
	}

	@Test
	void onWithoutTheUlpStillTriesAndWarnsThatItCosts() {
		KernelTlsPolicy policy = KernelTlsPolicy.of(config(KernelTlsMode.ON).build(), host("no tls ULP here", null));
		assertThat(policy.engages()).isTrue();
		assertThat(policy.describe()).contains("no tls ULP here", "slower", "use auto or off");
	}

	@Test
	void autoTakesOnlyConnectionsOnAnInterfaceWithOffload() {
		KernelTlsPolicy policy = KernelTlsPolicy.of(config(KernelTlsMode.AUTO).build(),
				host(null, "lo seals nothing itself"));
		assertThat(policy.engages()).isTrue();
		// An embedded channel is no epoll or io_uring channel.
		assertThat(policy.refusal(new EmbeddedChannel(), CERTIFICATE.material())).contains("NIO");
	}

	@Test
	void whatTheKernelTlsHandshakeCannotDoKeepsTheWholeListenerOff() {
		KernelTlsHost host = host(null, null);
		assertThat(KernelTlsPolicy.of(config(KernelTlsMode.ON).protocols(List.of("TLSv1.2")).build(), host).describe())
			.contains("TLS 1.3 is not offered");
		assertThat(KernelTlsPolicy.of(config(KernelTlsMode.ON).clientAuth(TlsClientAuth.NEED).build(), host)
			.describe()).contains("client-auth need");
		assertThat(KernelTlsPolicy.of(config(KernelTlsMode.ON).ciphers(List.of("TLS_AES_128_GCM_SHA256")).build(), host)
			.describe()).contains("cipher suites are configured");
	}

	@Test
	void theMachinesUlpIsReadFromTheKernelsListOrItsModule() throws Exception {
		Path ulps = Files.writeString(this.dir.resolve("tcp_available_ulp"), "mptcp\n");
		Path module = this.dir.resolve("modules/net/tls");
		assertThat(KernelTlsHost.Machine.ulpRefusal(ulps, module)).contains("'mptcp'", "modprobe tls");
		Files.createDirectories(module);
		assertThat(KernelTlsHost.Machine.ulpRefusal(ulps, module)).as("the module loads on first use").isNull();
		Files.writeString(ulps, "mptcp tls\n");
		assertThat(KernelTlsHost.Machine.ulpRefusal(ulps, this.dir.resolve("none"))).isNull();
		assertThat(KernelTlsHost.Machine.ulpRefusal(this.dir.resolve("missing"), module)).contains("cannot be read");
	}

	@Test
	void anInterfacesOffloadIsReadFromEthtool() {
		assertThat(KernelTlsHost.Machine.offloadRefusal("eth0", "Features for eth0:\n"
				+ "tls-hw-tx-offload: on\ntls-hw-rx-offload: off [fixed]\n")).isNull();
		assertThat(KernelTlsHost.Machine.offloadRefusal("eth0", "Features for eth0:\n"
				+ "tls-hw-tx-offload: off [fixed]\n")).isEqualTo("eth0 has no TLS TX offload (tls-hw-tx-offload: off [fixed])");
		assertThat(KernelTlsHost.Machine.offloadRefusal("eth0", "Features for eth0:\nrx-checksumming: on\n"))
			.contains("does not list tls-hw-tx-offload");
	}

	@Test
	void loopbackHasNoOffload() throws Exception {
		KernelTlsHost.Machine machine = new KernelTlsHost.Machine(true);
		if (machine.ulpRefusal() == null) {
			assertThat(machine.offloadRefusal(InetAddress.getLoopbackAddress())).contains("seals nothing itself");
		}
		else {
			assertThat(machine.offloadRefusal(InetAddress.getLoopbackAddress())).contains("was not read");
		}
	}

	private static TlsConfig.Builder config(KernelTlsMode mode) {
		return TlsConfig.builder(CERTIFICATE.material()).kernelTls(mode);
	}

	private static KernelTlsHost host(String ulpRefusal, String offloadRefusal) {
		return new KernelTlsHost() {

			@Override
			public String ulpRefusal() {
				return ulpRefusal;
			}

			@Override
			public String offloadRefusal(InetAddress local) {
				return offloadRefusal;
			}

		};
	}

}
