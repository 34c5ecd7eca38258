package io.khamsin.container.http2;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.junit.jupiter.api.Test;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.HttpSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which first requests of a plain connection are taken to h2c (RFC 7540, section 3.2), and which are left to
 * HTTP/1.1: only a whole, bodiless HTTP/1.1 head that asks for {@code h2c} with one well-formed
 * {@code HTTP2-Settings} and names both in {@code Connection}.
 */
class H2cUpgradeRequestTests {

	// SETTINGS_MAX_CONCURRENT_STREAMS = 100, SETTINGS_INITIAL_WINDOW_SIZE = 33554432, as curl sends them.
	private static final String SETTINGS = "AAMAAABkAAQCAAAAAAIAAAAA";

	private static final String UPGRADE = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n"
			+ "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: " + SETTINGS + "\r\n";

	private final HttpSettings config = KhamsinServerConfig.defaults().httpSettings();

	@Test
	void aBodilessRequestAskingForH2cIsUpgradedWithTheClientsSettings() {
		ByteBuf bytes = ascii(UPGRADE + "User-Agent: curl/7.88.1\r\n\r\nPRI * HTTP/2.0");
		H2cUpgradeRequest upgrade = H2cUpgradeRequest.read(bytes, this.config);
		try {
			assertThat(upgrade).isNotNull();
			assertThat(upgrade.headLength()).isEqualTo(bytes.readableBytes() - "PRI * HTTP/2.0".length());
			assertThat(upgrade.request().uri()).isEqualTo("/plaintext");
			assertThat(upgrade.request().headers().get(HttpHeaderNames.USER_AGENT)).isEqualTo("curl/7.88.1");
			assertThat(upgrade.settings().maxConcurrentStreams()).isEqualTo(100);
			assertThat(upgrade.settings().initialWindowSize()).isEqualTo(33_554_432);
			assertThat(bytes.readerIndex()).as("the bytes are not consumed").isZero();
		}
		finally {
			bytes.release();
			if (upgrade != null) {
				upgrade.request().release();
			}
		}
	}

	@Test
	void tokensAreMatchedWhateverTheirCase() {
		assertThat(read("GET / HTTP/1.1\r\nHost: a\r\nconnection: upgrade,http2-settings\r\nupgrade: H2C\r\n"
				+ "http2-settings: " + SETTINGS + "\r\n\r\n")).isTrue();
	}

	@Test
	void aRequestWithABodyIsLeftToHttp11() {
		assertThat(read(UPGRADE + "Content-Length: 5\r\n\r\nhello")).isFalse();
		assertThat(read(UPGRADE + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")).isFalse();
	}

	@Test
	void anEmptyBodyDoesNotPreventTheUpgrade() {
		assertThat(read(UPGRADE + "Content-Length: 0\r\n\r\n")).isTrue();
	}

	@Test
	void theSettingsMustBeThereOnceAndWellFormed() {
		String head = "GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n";
		assertThat(read(head + "\r\n")).isFalse();
		assertThat(read(head + "HTTP2-Settings: " + SETTINGS + "\r\nHTTP2-Settings: " + SETTINGS + "\r\n\r\n"))
			.isFalse();
		assertThat(read(head + "HTTP2-Settings: not+base64url/\r\n\r\n")).isFalse();
		assertThat(read(head + "HTTP2-Settings: AAMAAABk_w\r\n\r\n")).as("not a whole setting").isFalse();
		// SETTINGS_ENABLE_PUSH = 2 is out of range.
		assertThat(read(head + "HTTP2-Settings: AAIAAAAC\r\n\r\n")).isFalse();
		assertThat(read(head + "HTTP2-Settings:\r\n\r\n")).as("no settings at all").isTrue();
	}

	@Test
	void connectionMustNameUpgradeAndTheSettings() {
		assertThat(read("GET / HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nHTTP2-Settings: "
				+ SETTINGS + "\r\n\r\n")).isFalse();
		assertThat(read("GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nHTTP2-Settings: " + SETTINGS + "\r\n\r\n"))
			.isFalse();
	}

	@Test
	void otherUpgradesAndVersionsAreLeftToHttp11() {
		assertThat(read(UPGRADE.replace("Upgrade: h2c", "Upgrade: websocket") + "\r\n")).isFalse();
		assertThat(read(UPGRADE.replace("HTTP/1.1", "HTTP/1.0") + "\r\n")).isFalse();
		assertThat(read(UPGRADE.replace("Host: localhost\r\n", "") + "\r\n")).as("no Host").isFalse();
		assertThat(read(UPGRADE.replace("GET /plaintext", "CONNECT example.com:443") + "\r\n")).isFalse();
	}

	@Test
	void aHeadNotWhollyInTheFirstBytesIsLeftToHttp11() {
		assertThat(read(UPGRADE)).isFalse();
	}

	@Test
	void aHeadHttp11WouldRefuseIsLeftToIt() {
		assertThat(read(UPGRADE + "X-Folded: a\r\n b\r\n\r\n")).as("obsolete line folding").isFalse();
		assertThat(read(UPGRADE + "X-Space : a\r\n\r\n")).as("whitespace before the colon").isFalse();
		assertThat(read(UPGRADE + "X-Bad: a\u0000b\r\n\r\n")).as("a NUL in a value").isFalse();
		String longTarget = "/" + "a".repeat(KhamsinServerConfig.DEFAULT_MAX_INITIAL_LINE_LENGTH);
		assertThat(read(UPGRADE.replace("/plaintext", longTarget) + "\r\n")).as("a request line too long").isFalse();
	}

	@Test
	void aPlainHttp11RequestIsNotParsed() {
		assertThat(read("GET /plaintext HTTP/1.1\r\nHost: a\r\n\r\n")).isFalse();
	}

	private boolean read(String head) {
		ByteBuf bytes = ascii(head);
		try {
			H2cUpgradeRequest upgrade = H2cUpgradeRequest.read(bytes, this.config);
			if (upgrade != null) {
				upgrade.request().release();
			}
			return upgrade != null;
		}
		finally {
			bytes.release();
		}
	}

	private static ByteBuf ascii(String text) {
		return Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
	}

}
