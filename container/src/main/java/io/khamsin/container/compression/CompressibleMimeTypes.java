package io.khamsin.container.compression;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.util.InvalidMimeTypeException;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * Whether a response's {@code Content-Type} is one that is compressed, by the rule of Boot's Reactor Netty
 * {@code CompressionCustomizer}: a configured type compatible with it ({@link MimeType#isCompatibleWith}, so
 * wildcards and {@code +suffix} types match and parameters are ignored); no or an invalid {@code Content-Type}
 * is not compressed; no configured types compress everything.
 * <p>
 * An application answers with a handful of content types, so the verdict per header value is remembered, up to
 * {@value #REMEMBERED} values, instead of parsing the media type on every response.
 */
final class CompressibleMimeTypes {

	static final int REMEMBERED = 256;

	private final List<MimeType> types;

	private final ConcurrentHashMap<String, Boolean> verdicts = new ConcurrentHashMap<>();

	CompressibleMimeTypes(List<String> types) {
		this.types = types.stream().map(MimeTypeUtils::parseMimeType).toList();
	}

	boolean matches(String contentType) {
		if (this.types.isEmpty()) {
			return true;
		}
		if (contentType == null || contentType.isEmpty()) {
			return false;
		}
		Boolean verdict = this.verdicts.get(contentType);
		if (verdict == null) {
			verdict = compatible(contentType);
			if (this.verdicts.size() < REMEMBERED) {
				this.verdicts.put(contentType, verdict);
			}
		}
		return verdict;
	}

	private boolean compatible(String contentType) {
		try {
			MimeType type = MimeTypeUtils.parseMimeType(contentType);
			for (MimeType candidate : this.types) {
				if (candidate.isCompatibleWith(type)) {
					return true;
				}
			}
			return false;
		}
		catch (InvalidMimeTypeException ex) {
			return false;
		}
	}

}
