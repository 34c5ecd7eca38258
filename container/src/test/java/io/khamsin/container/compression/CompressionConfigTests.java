package io.khamsin.container.compression;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CompressionConfigTests {

	@Test
	void theDefaultsAreBootsAndCompressionIsOff() {
		CompressionConfig config = CompressionConfig.disabled();
		assertThat(config.enabled()).isFalse();
		assertThat(config.mimeTypes()).containsExactly("text/html", "text/xml", "text/plain", "text/css",
				"text/javascript", "application/javascript", "application/json", "application/xml");
		assertThat(config.minResponseSize()).isEqualTo(2048);
		assertThat(config.excludedUserAgents()).isEmpty();
		assertThat(config.codings()).containsExactly(ContentCoding.ZSTD, ContentCoding.BR, ContentCoding.GZIP);
	}

	@Test
	void badValuesAreRefusedNamingTheOption() {
		assertThatIllegalArgumentException().isThrownBy(() -> CompressionConfig.of(true, List.of("text"), 0, List.of()))
			.withMessageContaining("mimeTypes")
			.withMessageContaining("'text'");
		assertThatIllegalArgumentException().isThrownBy(() -> CompressionConfig.of(true, List.of(), -1, List.of()))
			.withMessageContaining("minResponseSize");
		assertThatIllegalArgumentException().isThrownBy(() -> CompressionConfig.disabled().withCodings())
			.withMessageContaining("codings");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CompressionConfig.disabled().withCodings(ContentCoding.GZIP, ContentCoding.GZIP))
			.withMessageContaining("codings");
		assertThatIllegalArgumentException().isThrownBy(() -> CompressionConfig.disabled().withLevels(10, 4, 3))
			.withMessageContaining("gzipLevel");
		assertThatIllegalArgumentException().isThrownBy(() -> CompressionConfig.disabled().withLevels(6, 12, 3))
			.withMessageContaining("brotliQuality");
		assertThatIllegalArgumentException().isThrownBy(() -> CompressionConfig.disabled().withLevels(6, 4, 23))
			.withMessageContaining("zstdLevel");
		assertThatIllegalArgumentException().isThrownBy(() -> CompressionConfig.disabled().withOffloadThreshold(0))
			.withMessageContaining("offloadThreshold");
	}

	@Test
	void listsAreCopied() {
		List<String> types = new java.util.ArrayList<>(List.of("text/html"));
		CompressionConfig config = CompressionConfig.of(true, types, 0, List.of());
		types.add("image/png");
		assertThat(config.mimeTypes()).containsExactly("text/html");
	}

	@Test
	void codingsAreNamedByTheirTokens() {
		assertThat(ContentCoding.of("ZSTD")).isEqualTo(ContentCoding.ZSTD);
		assertThat(ContentCoding.of(" br ")).isEqualTo(ContentCoding.BR);
		assertThat(ContentCoding.of("x-gzip")).isEqualTo(ContentCoding.GZIP);
		assertThatIllegalArgumentException().isThrownBy(() -> ContentCoding.of("deflate"))
			.withMessageContaining("'deflate'");
	}

	@Test
	void everyCodingIsAvailableHere() {
		assertThat(ContentCoding.values()).allSatisfy((coding) -> assertThat(coding.isAvailable()).isTrue());
	}

}
