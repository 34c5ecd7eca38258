package io.khamsin.boot.compression;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.util.unit.DataSize;

import io.khamsin.container.compression.CompressionConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CompressionConfigMapperTests {

	@Test
	void bootsDefaultsAreTheEnginesDefaults() {
		assertThat(CompressionConfigMapper.map(new Compression())).isEqualTo(CompressionConfig.disabled());
		assertThat(CompressionConfigMapper.map(null)).isEqualTo(CompressionConfig.disabled());
		assertThat(CompressionConfig.DEFAULT_MIME_TYPES).containsExactly(new Compression().getMimeTypes());
		assertThat(CompressionConfig.DEFAULT_MIN_RESPONSE_SIZE)
			.isEqualTo(new Compression().getMinResponseSize().toBytes());
	}

	@Test
	void serverCompressionPropertiesReachTheEngine() {
		Compression compression = bind(Map.of("server.compression.enabled", "true", "server.compression.mime-types",
				"text/html, application/*+json", "server.compression.min-response-size", "1KB",
				"server.compression.excluded-user-agents", "curl/.*,Legacy/1.0"));
		assertThat(CompressionConfigMapper.map(compression)).isEqualTo(CompressionConfig.of(true,
				List.of("text/html", "application/*+json"), 1024, List.of("curl/.*", "Legacy/1.0")));
	}

	@Test
	void anEmptyTypeListCompressesEveryTypeAndANegativeMinimumMeansNone() {
		Compression compression = new Compression();
		compression.setEnabled(true);
		compression.setMimeTypes(new String[0]);
		compression.setMinResponseSize(DataSize.ofBytes(-1));
		CompressionConfig config = CompressionConfigMapper.map(compression);
		assertThat(config.mimeTypes()).isEmpty();
		assertThat(config.minResponseSize()).isZero();
		compression.setMimeTypes(null);
		compression.setMinResponseSize(null);
		assertThat(CompressionConfigMapper.map(compression).mimeTypes()).isEmpty();
	}

	@Test
	void aBadMimeTypeIsRefusedNamingTheProperty() {
		Compression compression = bind(Map.of("server.compression.mime-types", "text/html,json"));
		assertThatIllegalArgumentException().isThrownBy(() -> CompressionConfigMapper.map(compression))
			.withMessageContaining("server.compression.mime-types")
			.withMessageContaining("'json'");
	}

	private static Compression bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("server", ServerProperties.class)
			.getCompression();
	}

}
