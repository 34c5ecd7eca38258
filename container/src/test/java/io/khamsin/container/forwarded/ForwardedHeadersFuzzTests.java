package io.khamsin.container.forwarded;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forwarded headers of any content from a trusted proxy: {@code Forwarded} and the {@code X-Forwarded} family
 * never make {@link ForwardedHeaders#resolve} throw, and the origin it answers is one a request URI can be built
 * from: a lower-case scheme, a host that parses again to itself, a port from 1 to 65535, a remote address, and a
 * prefix that is empty or an absolute path without a trailing slash. Run with {@code JAZZER_FUZZ=1} to fuzz
 * ({@code benchmark/fuzz}); without it, the inputs in {@code ForwardedHeadersFuzzTestsInputs} are replayed.
 */
class ForwardedHeadersFuzzTests {

	private static final String[] NAMES = { "Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host",
			"X-Forwarded-Port", "X-Forwarded-Prefix", "Host" };

	private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 8080);

	private static final InetSocketAddress PROXY = new InetSocketAddress("10.0.0.6", 40000);

	private static final ForwardedHeaders FORWARDED = new ForwardedHeaders(
			ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));

	@FuzzTest(maxDuration = "8s")
	void anyForwardedHeadersGiveAnOriginARequestUriCanBeBuiltFrom(FuzzedDataProvider data) {
		HttpHeaders headers = new DefaultHttpHeaders(false);
		int count = data.consumeInt(1, 6);
		for (int i = 0; i < count; i++) {
			headers.add(NAMES[data.consumeInt(0, NAMES.length - 1)], data.consumeString(80));
		}
		String scheme = data.consumeBoolean() ? "https" : "http";
		RequestOrigin origin = FORWARDED.resolve(headers, scheme, PROXY, LOCAL);
		if (origin == null) {
			assertThat(headers.names()).as("no origin only without forwarded headers").containsOnly("Host");
			return;
		}
		assertThat(origin.scheme()).matches("[a-z][a-z0-9+.-]*");
		ForwardedValues.HostAndPort host = ForwardedValues.hostAndPort(origin.host());
		assertThat(host).as("the host %s parses again", origin.host()).isNotNull();
		assertThat(host.host()).isEqualTo(origin.host());
		assertThat(host.port()).isEqualTo(-1);
		assertThat(origin.port()).isBetween(1, 65535);
		assertThat(origin.remoteAddress()).isNotNull();
		assertThat(origin.remoteAddress().isUnresolved() || origin.remoteAddress().getAddress() != null).isTrue();
		assertThat(origin.prefix()).matches("(/.*[^/])?");
		URI uri = URI.create(origin.scheme() + "://" + origin.authority() + origin.prefix() + "/");
		assertThat(uri.getRawAuthority()).isEqualTo(origin.authority());
	}

	@FuzzTest(maxDuration = "8s")
	void forwardedElementsAreParsedLeftToRightIntoValuesWithoutSeparators(FuzzedDataProvider data) {
		String header = data.consumeRemainingAsString();
		List<ForwardedElements.Element> elements = ForwardedElements.parse(List.of(header));
		assertThat(elements.size()).as("at most one element per comma and one more")
			.isLessThanOrEqualTo((int) header.chars().filter((c) -> c == ',').count() + 1);
		for (ForwardedElements.Element element : elements) {
			ForwardedValues.Node node = ForwardedValues.node(element.forNode());
			if (node != null) {
				assertThat(node.address() != null || node.identifier() != null).isTrue();
				assertThat(node.port() == -1 || (node.port() >= 1 && node.port() <= 65535)).isTrue();
			}
		}
	}

}
