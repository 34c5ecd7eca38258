package io.khamsin.container.forwarded;

import java.net.InetAddress;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.util.NetUtil;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trusted-proxy entry ({@code khamsin.forwarded.trusted-proxies}) of any content: it is refused with an
 * {@link IllegalArgumentException} that names the entry, or it trusts the address it was written with, and the
 * block it stands for reads back as itself. Run with {@code JAZZER_FUZZ=1} to fuzz ({@code benchmark/fuzz});
 * without it, the inputs in {@code TrustedProxiesFuzzTestsInputs} are replayed.
 */
class TrustedProxiesFuzzTests {

	@FuzzTest(maxDuration = "8s")
	void anEntryIsRefusedOrTrustsTheAddressItWasWrittenWith(FuzzedDataProvider data) {
		String entry = data.consumeRemainingAsString();
		ForwardedConfig config;
		try {
			config = ForwardedConfig.trusting(List.of(entry));
		}
		catch (IllegalArgumentException ex) {
			assertThat(ex).hasMessageStartingWith("trustedProxies[0]: ");
			return;
		}
		String text = entry.trim();
		int slash = text.indexOf('/');
		String address = (slash >= 0) ? text.substring(0, slash) : text;
		if (address.startsWith("[") && address.endsWith("]")) {
			address = address.substring(1, address.length() - 1);
		}
		InetAddress written = NetUtil.createInetAddressFromIpAddressString(address);
		assertThat(written).as("the address of %s", entry).isNotNull();
		assertThat(new ForwardedHeaders(config).isTrusted(written)).as("%s trusts %s", entry, written).isTrue();
		AddressBlock block = AddressBlock.parse(entry);
		assertThat(AddressBlock.parse(block.toString())).hasToString(block.toString());
	}

}
