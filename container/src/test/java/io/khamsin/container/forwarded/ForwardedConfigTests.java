package io.khamsin.container.forwarded;

import java.net.InetAddress;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ForwardedConfigTests {

	@Test
	void byDefaultForwardedHeadersAreOffAndLoopbackAndPrivateRangesAreTrusted() throws Exception {
		ForwardedConfig config = ForwardedConfig.disabled();
		assertThat(config.enabled()).isFalse();
		ForwardedHeaders headers = new ForwardedHeaders(ForwardedConfig.trusting(config.trustedProxies()));
		for (String trusted : List.of("127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255",
				"192.168.0.1", "169.254.1.1", "100.64.0.1", "::1", "fd00::1", "fe80::1")) {
			assertThat(headers.isTrusted(InetAddress.getByName(trusted))).as(trusted).isTrue();
		}
		for (String untrusted : List.of("8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:db8::1",
				"::2")) {
			assertThat(headers.isTrusted(InetAddress.getByName(untrusted))).as(untrusted).isFalse();
		}
	}

	@Test
	void aBadBlockIsRefusedNamingItsPlace() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ForwardedConfig.trusting(List.of("10.0.0.0/8", "proxy.internal")))
			.withMessageContaining("trustedProxies[1]")
			.withMessageContaining("'proxy.internal'");
		assertThatIllegalArgumentException().isThrownBy(() -> ForwardedConfig.trusting(List.of("10.0.0.0/33")))
			.withMessageContaining("prefix length");
		assertThatIllegalArgumentException().isThrownBy(() -> ForwardedConfig.trusting(List.of("fd00::/129")))
			.withMessageContaining("prefix length");
		assertThatIllegalArgumentException().isThrownBy(() -> ForwardedConfig.trusting(List.of("10.0.0.0/")))
			.withMessageContaining("prefix length");
		assertThatIllegalArgumentException().isThrownBy(() -> ForwardedConfig.trusting(List.of(" ")))
			.withMessageContaining("empty");
		assertThatIllegalArgumentException().isThrownBy(() -> ForwardedConfig.trusting(List.of("10.0.0.0/\u0668")))
			.withMessageContaining("prefix length");
	}

	@Test
	void anAddressWithAZoneIsRefusedRatherThanTakenWithoutIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> ForwardedConfig.trusting(List.of("::%>")))
			.withMessageContaining("'::%>' is not an IP address");
		assertThatIllegalArgumentException().isThrownBy(() -> ForwardedConfig.trusting(List.of("fe80::1%eth0/128")))
			.withMessageContaining("is not an IP address");
	}

	@Test
	void aBlockWithHostBitsSetIsRefusedWithTheBlockItMeant() {
		assertThatIllegalArgumentException().isThrownBy(() -> ForwardedConfig.trusting(List.of("192.168.1.10/24")))
			.withMessageContaining("192.168.1.0/24");
	}

	@Test
	void blocksMatchTheirAddressesOnly() throws Exception {
		AddressBlock v4 = AddressBlock.parse("192.0.2.128/25");
		assertThat(v4.contains(InetAddress.getByName("192.0.2.200"))).isTrue();
		assertThat(v4.contains(InetAddress.getByName("192.0.2.100"))).isFalse();
		assertThat(v4.contains(InetAddress.getByName("::ffff:192.0.2.200"))).isTrue();
		assertThat(v4.contains(InetAddress.getByName("2001:db8::1"))).isFalse();
		AddressBlock v6 = AddressBlock.parse("[2001:db8::]/32");
		assertThat(v6.contains(InetAddress.getByName("2001:db8:ffff::1"))).isTrue();
		assertThat(v6.contains(InetAddress.getByName("2001:db9::1"))).isFalse();
		assertThat(AddressBlock.parse("10.0.0.1").contains(InetAddress.getByName("10.0.0.1"))).isTrue();
		assertThat(AddressBlock.parse("10.0.0.1").contains(InetAddress.getByName("10.0.0.2"))).isFalse();
		assertThat(AddressBlock.parse("0.0.0.0/0").contains(InetAddress.getByName("203.0.113.1"))).isTrue();
	}

	@Test
	void theOriginsAuthorityLeavesOutTheDefaultPort() {
		assertThat(new RequestOrigin("https", "a.example", 443, null, "").authority()).isEqualTo("a.example");
		assertThat(new RequestOrigin("https", "a.example", 80, null, "").authority()).isEqualTo("a.example:80");
		assertThat(new RequestOrigin("http", "[::1]", 80, null, "").authority()).isEqualTo("[::1]");
		assertThat(new RequestOrigin("wss", "a.example", 443, null, "").authority()).isEqualTo("a.example");
	}

}
