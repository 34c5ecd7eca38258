package io.khamsin.container.compression;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Accept-Encoding} of any content: {@link AcceptEncoding#negotiate} never throws and answers identity or an
 * offered coding the client named (or {@code *}), and for a header of well-formed elements its choice is the one
 * RFC 9110 section 12.5.3 gives, worked out here from the q-values (each from 0 to 1) the elements were written
 * with. Run with {@code JAZZER_FUZZ=1} to fuzz ({@code benchmark/fuzz}); without it, the inputs in
 * {@code AcceptEncodingFuzzTestsInputs} are replayed.
 */
class AcceptEncodingFuzzTests {

	private static final List<ContentCoding> OFFERED = List.of(ContentCoding.ZSTD, ContentCoding.BR,
			ContentCoding.GZIP);

	private static final String[] TOKENS = { "zstd", "br", "gzip", "x-gzip", "identity", "*", "deflate", "Gzip",
			"BR", "compress" };

	@FuzzTest(maxDuration = "8s")
	void anyHeaderIsAnsweredWithIdentityOrAnOfferedCodingTheClientNamed(FuzzedDataProvider data) {
		List<String> lines = new ArrayList<>();
		int count = data.consumeInt(0, 3);
		for (int i = 0; i < count; i++) {
			lines.add(data.consumeString(100));
		}
		ContentCoding chosen = AcceptEncoding.negotiate(lines, OFFERED);
		if (chosen == null) {
			return;
		}
		assertThat(OFFERED).contains(chosen);
		assertThat(chosen.isAvailable()).isTrue();
		String all = String.join(",", lines).toLowerCase(Locale.ROOT);
		assertThat(all).as("the client named %s or *", chosen).containsAnyOf(chosen.token(), "*");
		assertThat(AcceptEncoding.negotiate(lines, OFFERED)).as("the same answer again").isEqualTo(chosen);
	}

	@FuzzTest(maxDuration = "8s")
	void wellFormedElementsAreAnsweredByTheirQValues(FuzzedDataProvider data) {
		int count = data.consumeInt(1, 6);
		StringBuilder header = new StringBuilder();
		int[] weights = new int[ContentCoding.values().length];
		Arrays.fill(weights, -1);
		int star = -1;
		for (int i = 0; i < count; i++) {
			String token = TOKENS[data.consumeInt(0, TOKENS.length - 1)];
			int weight = data.consumeBoolean() ? 1000 : data.consumeInt(0, 1000);
			if (i > 0) {
				header.append(data.consumeBoolean() ? ", " : ",");
			}
			header.append(token);
			if (weight < 1000 || data.consumeBoolean()) {
				header.append(data.consumeBoolean() ? ";q=" : " ; Q=").append(qvalue(weight));
			}
			ContentCoding coding = coding(token);
			if (token.equals("*")) {
				star = Math.max(star, weight);
			}
			else if (coding != null) {
				weights[coding.ordinal()] = Math.max(weights[coding.ordinal()], weight);
			}
		}
		ContentCoding expected = null;
		int best = 0;
		for (ContentCoding coding : OFFERED) {
			int weight = (weights[coding.ordinal()] >= 0) ? weights[coding.ordinal()] : Math.max(star, 0);
			if (weight > best && coding.isAvailable()) {
				expected = coding;
				best = weight;
			}
		}
		if (expected != null && weights[ContentCoding.IDENTITY.ordinal()] > best) {
			expected = null;
		}
		assertThat(AcceptEncoding.negotiate(List.of(header.toString()), OFFERED)).as("the coding for %s", header)
			.isEqualTo(expected);
	}

	private static ContentCoding coding(String token) {
		return switch (token.toLowerCase(Locale.ROOT)) {
			case "zstd" -> ContentCoding.ZSTD;
			case "br" -> ContentCoding.BR;
			case "gzip", "x-gzip" -> ContentCoding.GZIP;
			case "identity" -> ContentCoding.IDENTITY;
			default -> null;
		};
	}

	private static String qvalue(int thousandths) {
		if (thousandths == 1000) {
			return "1";
		}
		String digits = String.format(Locale.ROOT, "%03d", thousandths);
		while (digits.endsWith("0")) {
			digits = digits.substring(0, digits.length() - 1);
		}
		return digits.isEmpty() ? "0" : "0." + digits;
	}

}
