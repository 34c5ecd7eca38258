package io.khamsin.container.forwarded;

import java.net.InetSocketAddress;
import java.util.List;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forwarded headers as proxies write them: RFC 7239's examples, the X-Forwarded family, chains of proxies where
 * only the trusted part counts, IPv6, prefixes, and values that do not parse.
 */
class ForwardedHeadersTests {

	private static final InetSocketAddress LOCAL = new InetSocketAddress("127.0.0.1", 8080);

	private static final InetSocketAddress PROXY = new InetSocketAddress("10.0.0.6", 40000);

	private final ForwardedHeaders defaults = new ForwardedHeaders(
			ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES));

	@Test
	void aPeerThatIsNotATrustedProxyIsTakenAsTheClient() {
		HttpHeaders headers = headers("X-Forwarded-For", "198.51.100.1", "X-Forwarded-Proto", "https",
				"X-Forwarded-Host", "evil.example", "Forwarded", "for=198.51.100.1;host=evil.example");
		assertThat(this.defaults.resolve(headers, "http", new InetSocketAddress("203.0.113.5", 5000), LOCAL)).isNull();
		assertThat(this.defaults.resolve(headers, "http", new InetSocketAddress("2001:db8::5", 5000), LOCAL)).isNull();
	}

	@Test
	void nothingIsReadWhenForwardedHeadersAreOff() {
		ForwardedHeaders off = new ForwardedHeaders(ForwardedConfig.disabled());
		assertThat(off.resolve(headers("X-Forwarded-Proto", "https"), "http", PROXY, LOCAL)).isNull();
	}

	@Test
	void aTrustedPeerWithoutForwardedHeadersIsTakenAsIs() {
		assertThat(this.defaults.resolve(headers("Host", "app.example"), "http", PROXY, LOCAL)).isNull();
	}

	@Test
	void rfc7239ObfuscatedNode() {
		RequestOrigin origin = resolve("Forwarded", "for=\"_gazonk\"");
		assertThat(origin.remoteAddress().isUnresolved()).isTrue();
		assertThat(origin.remoteAddress().getHostString()).isEqualTo("_gazonk");
	}

	@Test
	void rfc7239QuotedIpv6NodeWithPortAndParameterNamesInAnyCase() {
		RequestOrigin origin = resolve("Forwarded", "For=\"[2001:db8:cafe::17]:4711\"");
		assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("2001:db8:cafe:0:0:0:0:17");
		assertThat(origin.remoteAddress().getPort()).isEqualTo(4711);
	}

	@Test
	void rfc7239ForProtoAndBy() {
		RequestOrigin origin = resolve("Forwarded", "for=192.0.2.60;proto=http;by=203.0.113.43");
		assertThat(origin.remoteAddress()).isEqualTo(new InetSocketAddress("192.0.2.60", PROXY.getPort()));
		assertThat(origin.scheme()).isEqualTo("http");
	}

	@Test
	void rfc7239TwoHopsTakeTheRightMostThatIsNotATrustedProxy() {
		RequestOrigin origin = resolve("Forwarded", "for=192.0.2.43, for=198.51.100.17");
		assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("198.51.100.17");
	}

	@Test
	void rfc7239UnknownHop() {
		RequestOrigin origin = resolve("Forwarded", "for=192.0.2.43,for=\"[2001:db8:cafe::17]\",for=unknown");
		assertThat(origin.remoteAddress().getHostString()).isEqualTo("unknown");
	}

	@Test
	void forwardedProtoAndHostGiveTheSchemeHostAndDefaultPort() {
		RequestOrigin origin = resolve("Host", "app:8080", "Forwarded",
				"for=203.0.113.7;proto=https;host=shop.example");
		assertThat(origin.scheme()).isEqualTo("https");
		assertThat(origin.host()).isEqualTo("shop.example");
		assertThat(origin.port()).isEqualTo(443);
		assertThat(origin.authority()).isEqualTo("shop.example");
		assertThat(origin.prefix()).isEmpty();
	}

	@Test
	void theHopsBehindTrustedProxiesAreFollowedToTheClient() {
		RequestOrigin origin = resolve("Forwarded",
				"for=203.0.113.7;proto=https;host=shop.example, for=10.0.0.5;proto=http;host=internal:8080");
		assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("203.0.113.7");
		assertThat(origin.scheme()).isEqualTo("https");
		assertThat(origin.host()).isEqualTo("shop.example");
	}

	@Test
	void whatAClientWroteLeftOfTheFirstUntrustedHopIsIgnored() {
		RequestOrigin origin = resolve("Forwarded",
				"for=10.9.9.9;proto=http;host=evil.example, for=203.0.113.7;proto=https;host=shop.example");
		assertThat(origin.host()).isEqualTo("shop.example");
		assertThat(origin.scheme()).isEqualTo("https");
		assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("203.0.113.7");
	}

	@Test
	void whenEveryHopIsTrustedTheLeftMostIsTheClient() {
		RequestOrigin origin = resolve("Forwarded", "for=192.168.1.20;host=intranet, for=10.0.0.5");
		assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("192.168.1.20");
		assertThat(origin.host()).isEqualTo("intranet");
	}

	@Test
	void severalForwardedLinesAreOneListAndQuotedSeparatorsDoNotSplit() {
		HttpHeaders headers = headers("Forwarded", "for=\"198.51.100.9:1234\";host=\"a.example:8443\";proto=\"https\"");
		headers.add("Forwarded", "for=10.0.0.5;host=\"ignored, really;\"");
		RequestOrigin origin = this.defaults.resolve(headers, "http", PROXY, LOCAL);
		assertThat(origin.remoteAddress()).isEqualTo(new InetSocketAddress("198.51.100.9", 1234));
		assertThat(origin.authority()).isEqualTo("a.example:8443");
	}

	@Test
	void forwardedWinsOverTheXForwardedHeaders() {
		RequestOrigin origin = resolve("Forwarded", "for=198.51.100.1;proto=https;host=rfc.example",
				"X-Forwarded-For", "198.51.100.2", "X-Forwarded-Host", "x.example", "X-Forwarded-Port", "9999");
		assertThat(origin.host()).isEqualTo("rfc.example");
		assertThat(origin.port()).isEqualTo(443);
		assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("198.51.100.1");
	}

	@Test
	void xForwardedHeadersGiveClientSchemeAndHost() {
		RequestOrigin origin = resolve("Host", "app:8080", "X-Forwarded-For", "203.0.113.9", "X-Forwarded-Proto",
				"https", "X-Forwarded-Host", "shop.example");
		assertThat(origin.remoteAddress()).isEqualTo(new InetSocketAddress("203.0.113.9", PROXY.getPort()));
		assertThat(origin.scheme()).isEqualTo("https");
		assertThat(origin.authority()).isEqualTo("shop.example");
	}

	@Test
	void xForwardedHostMayCarryAPortAndXForwardedPortWins() {
		assertThat(resolve("X-Forwarded-Host", "shop.example:8443").authority()).isEqualTo("shop.example:8443");
		RequestOrigin origin = resolve("X-Forwarded-Proto", "https", "X-Forwarded-Host", "shop.example:8443",
				"X-Forwarded-Port", "9443");
		assertThat(origin.port()).isEqualTo(9443);
		assertThat(origin.authority()).isEqualTo("shop.example:9443");
	}

	@Test
	void theHostHeadersPortStaysWhenOnlyTheSchemeIsForwarded() {
		RequestOrigin origin = resolve("Host", "app.example:8080", "X-Forwarded-Proto", "HTTPS");
		assertThat(origin.scheme()).isEqualTo("https");
		assertThat(origin.authority()).isEqualTo("app.example:8080");
		assertThat(resolve("Host", "app.example", "X-Forwarded-Proto", "https").authority()).isEqualTo("app.example");
	}

	@Test
	void aChainOfXForwardedForIsFollowedOnlyThroughTrustedProxies() {
		RequestOrigin origin = resolve("X-Forwarded-For", "6.6.6.6, 203.0.113.9, 10.0.0.2");
		assertThat(origin.remoteAddress().getAddress().getHostAddress()).isEqualTo("203.0.113.9");
		HttpHeaders lines = headers("X-Forwarded-For", "6.6.6.6");
		lines.add("X-Forwarded-For", "203.0.113.9, 127.0.0.1");
		assertThat(this.defaults.resolve(lines, "http", PROXY, LOCAL).remoteAddress().getAddress().getHostAddress())
			.isEqualTo("203.0.113.9");
	}

	@Test
	void protoAndHostListsAreReadAtTheClientsHopWhenEveryProxyAppended() {
		RequestOrigin origin = resolve("X-Forwarded-For", "6.6.6.6, 203.0.113.9, 10.0.0.2", "X-Forwarded-Proto",
				"http, https, http", "X-Forwarded-Host", "evil.example, shop.example, internal");
		assertThat(origin.scheme()).isEqualTo("https");
		assertThat(origin.host()).isEqualTo("shop.example");
	}

	@Test
	void otherwiseTheRightMostProtoAndHostAreRead() {
		RequestOrigin origin = resolve("X-Forwarded-For", "203.0.113.9", "X-Forwarded-Proto", "http, https",
				"X-Forwarded-Host", "evil.example, shop.example");
		assertThat(origin.scheme()).isEqualTo("https");
		assertThat(origin.host()).isEqualTo("shop.example");
		assertThat(resolve("X-Forwarded-Proto", "https").scheme()).isEqualTo("https");
	}

	@Test
	void ipv6InXForwardedHeadersBareOrBracketedWithPorts() {
		assertThat(resolve("X-Forwarded-For", "2001:db8::1").remoteAddress().getAddress().getHostAddress())
			.isEqualTo("2001:db8:0:0:0:0:0:1");
		assertThat(resolve("X-Forwarded-For", "[2001:db8::1]:1234").remoteAddress().getPort()).isEqualTo(1234);
		RequestOrigin origin = resolve("X-Forwarded-Host", "[2001:db8::2]:8443");
		assertThat(origin.host()).isEqualTo("[2001:db8::2]");
		assertThat(origin.port()).isEqualTo(8443);
		assertThat(origin.authority()).isEqualTo("[2001:db8::2]:8443");
		assertThat(resolve("X-Forwarded-Proto", "https", "X-Forwarded-Host", "[::1]").authority()).isEqualTo("[::1]");
	}

	@Test
	void anIpv6PeerIsMatchedAgainstIpv6Blocks() {
		HttpHeaders headers = headers("X-Forwarded-Proto", "https");
		assertThat(this.defaults.resolve(headers, "http", new InetSocketAddress("::1", 1), LOCAL)).isNotNull();
		assertThat(this.defaults.resolve(headers, "http", new InetSocketAddress("fd12:3456::9", 1), LOCAL)).isNotNull();
		assertThat(this.defaults.resolve(headers, "http", new InetSocketAddress("::ffff:10.1.2.3", 1), LOCAL))
			.isNotNull();
		assertThat(this.defaults.resolve(headers, "http", new InetSocketAddress("2001:db8::1", 1), LOCAL)).isNull();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "/api | /api", "/api/ | /api", "/api// | /api", "/a, /b/ | /a/b", "/ | ''",
			"'' | ''", "/v1/shop | /v1/shop" })
	void xForwardedPrefixWithAndWithoutItsTrailingSlash(String header, String prefix) {
		assertThat(resolve("X-Forwarded-Prefix", header).prefix()).isEqualTo(prefix);
	}

	@Test
	void xForwardedPrefixIsReadBesideForwarded() {
		assertThat(resolve("Forwarded", "proto=https", "X-Forwarded-Prefix", "/shop").prefix()).isEqualTo("/shop");
	}

	@ParameterizedTest
	@ValueSource(strings = { "api", "/a b", "/a?b=1", "/a#frag", "/a\"b", "/a<script>", "/%P~", "/a%2", "/a%" })
	void aPrefixThatIsNotAPathIsIgnored(String header) {
		assertThat(resolve("X-Forwarded-Prefix", header, "X-Forwarded-Proto", "https").prefix()).isEmpty();
	}

	@Test
	void aPercentEncodedPrefixIsKept() {
		assertThat(resolve("X-Forwarded-Prefix", "/a%2Fb%c3%a9").prefix()).isEqualTo("/a%2Fb%c3%a9");
	}

	@ParameterizedTest
	@ValueSource(strings = { ":713", ":_port", ":" })
	void aNodeWithAPortButNoAddressIsIgnored(String node) {
		assertThat(resolve("Forwarded", "for=\"" + node + "\";proto=https").remoteAddress()).isEqualTo(PROXY);
		assertThat(resolve("X-Forwarded-For", node).remoteAddress()).isEqualTo(PROXY);
	}

	@ParameterizedTest
	@ValueSource(strings = { "80abc", "0", "70000", "-1", "", "443, x" })
	void aPortThatIsNotOneIsIgnored(String port) {
		RequestOrigin origin = resolve("Host", "app.example", "X-Forwarded-Port", port);
		assertThat(origin.port()).isIn(80, 443);
		assertThat(origin.host()).isEqualTo("app.example");
	}

	@ParameterizedTest
	@ValueSource(strings = { "evil.example/path", "a b", "evil.example:port", "[not-v6]", "[2001:db8::1", "user@host",
			"bad\"host", "host:99999", "%65vil" })
	void aHostWithCharactersNoHostHasIsIgnored(String host) {
		RequestOrigin origin = resolve("Host", "app.example:8080", "X-Forwarded-Host", host, "X-Forwarded-Proto",
				"https");
		assertThat(origin.authority()).isEqualTo("app.example:8080");
		assertThat(origin.scheme()).isEqualTo("https");
	}

	@ParameterizedTest
	@ValueSource(strings = { "ht tp", "1http", "https://", "" })
	void aSchemeThatIsNotOneIsIgnored(String scheme) {
		assertThat(resolve("X-Forwarded-Proto", scheme, "X-Forwarded-Host", "shop.example").scheme()).isEqualTo("http");
	}

	@ParameterizedTest
	@ValueSource(strings = { "not-an-ip", "999.1.1.1", "203.0.113.9:port", "[::1]x", "shop.example" })
	void aClientAddressThatIsNotOneLeavesThePeer(String forwardedFor) {
		assertThat(resolve("X-Forwarded-For", forwardedFor).remoteAddress()).isEqualTo(PROXY);
	}

	@Test
	void malformedForwardedElementsAreSkipped() {
		RequestOrigin origin = resolve("Forwarded", "for=203.0.113.7;host=;proto=https;junk, for=\"unterminated");
		assertThat(origin.remoteAddress()).isEqualTo(PROXY);
		RequestOrigin valid = resolve("Forwarded", "for=203.0.113.7;host==bad;proto=https");
		assertThat(valid.scheme()).isEqualTo("https");
		assertThat(valid.remoteAddress().getAddress().getHostAddress()).isEqualTo("203.0.113.7");
	}

	@Test
	void aRequestWithoutHostIsNamedByTheLocalAddress() {
		RequestOrigin origin = this.defaults.resolve(headers("X-Forwarded-Proto", "https"), "http", PROXY,
				new InetSocketAddress("::1", 8443));
		assertThat(origin.authority()).isEqualTo("[0:0:0:0:0:0:0:1]:8443");
	}

	@Test
	void aChannelWithoutAddressesIsTakenAsIsOrNamedLocalhost() {
		assertThat(this.defaults.resolve(headers("X-Forwarded-Proto", "https"), "http", null, null)).isNull();
		assertThat(this.defaults.resolve(headers("X-Forwarded-Proto", "https"), "http", PROXY, null).authority())
			.isEqualTo("localhost");
	}

	@Test
	void onlyTheConfiguredProxiesAreTrusted() {
		ForwardedHeaders named = new ForwardedHeaders(ForwardedConfig.trusting(List.of("192.0.2.10", "2001:db8::/32")));
		HttpHeaders headers = headers("X-Forwarded-Proto", "https");
		assertThat(named.resolve(headers, "http", PROXY, LOCAL)).isNull();
		assertThat(named.resolve(headers, "http", new InetSocketAddress("192.0.2.10", 1), LOCAL)).isNotNull();
		assertThat(named.resolve(headers, "http", new InetSocketAddress("192.0.2.11", 1), LOCAL)).isNull();
		assertThat(named.resolve(headers, "http", new InetSocketAddress("2001:db8:1::1", 1), LOCAL)).isNotNull();
		ForwardedHeaders none = new ForwardedHeaders(ForwardedConfig.trusting(List.of()));
		assertThat(none.resolve(headers, "http", new InetSocketAddress("127.0.0.1", 1), LOCAL)).isNull();
		ForwardedHeaders everyone = new ForwardedHeaders(ForwardedConfig.trusting(List.of("0.0.0.0/0", "::/0")));
		assertThat(everyone.resolve(headers, "http", new InetSocketAddress("203.0.113.5", 1), LOCAL)).isNotNull();
		assertThat(everyone.resolve(headers, "http", new InetSocketAddress("2001:db8::5", 1), LOCAL)).isNotNull();
	}

	private RequestOrigin resolve(String... namesAndValues) {
		RequestOrigin origin = this.defaults.resolve(headers(namesAndValues), "http", PROXY, LOCAL);
		assertThat(origin).isNotNull();
		return origin;
	}

	private static HttpHeaders headers(String... namesAndValues) {
		HttpHeaders headers = new DefaultHttpHeaders(false);
		for (int i = 0; i < namesAndValues.length; i += 2) {
			headers.add(namesAndValues[i], namesAndValues[i + 1]);
		}
		return headers;
	}

}
