package io.khamsin.boot.compression;

import java.util.Arrays;
import java.util.List;

import org.springframework.boot.web.server.Compression;
import org.springframework.util.unit.DataSize;

import io.khamsin.container.compression.CompressionConfig;

/**
 * Maps Boot's {@link Compression} ({@code server.compression.*}) to the engine's {@link CompressionConfig}, reading
 * it as Boot's Reactor Netty customizer does: no MIME types compress every type, a negative minimum size means no
 * minimum, no excluded user agents exclude none.
 */
public final class CompressionConfigMapper {

	private CompressionConfigMapper() {
	}

	/**
	 * The engine's configuration of Boot's compression settings.
	 * @param compression the settings, or {@code null} when there are none
	 * @return the configuration; compression off when {@code compression} is {@code null}
	 * @throws IllegalArgumentException if a setting is invalid, naming the property
	 */
	public static CompressionConfig map(Compression compression) {
		if (compression == null) {
			return CompressionConfig.disabled();
		}
		DataSize minResponseSize = compression.getMinResponseSize();
		long minimum = (minResponseSize != null) ? Math.max(0, minResponseSize.toBytes()) : 0;
		try {
			return CompressionConfig.of(compression.getEnabled(), values(compression.getMimeTypes()), minimum,
					values(compression.getExcludedUserAgents()));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid server.compression.mime-types: " + ex.getMessage(), ex);
		}
	}

	private static List<String> values(String[] values) {
		if (values == null) {
			return List.of();
		}
		return Arrays.stream(values).map(String::trim).filter((value) -> !value.isEmpty()).toList();
	}

}
