package io.khamsin.container.compression;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The coding chosen from {@code Accept-Encoding}: RFC 9110 section 12.5.3's examples, q-values, exclusions, and
 * the server's order where the client has none.
 */
class AcceptEncodingTests {

	private static final List<ContentCoding> ALL = CompressionConfig.DEFAULT_CODINGS;

	@ParameterizedTest(name = "\"{0}\" -> {1}")
	@CsvSource(delimiter = '|', nullValues = "identity", value = {
			// RFC 9110 section 12.5.3
			"compress, gzip                          | gzip",
			"''                                      | identity",
			"*                                       | zstd",
			"compress;q=0.5, gzip;q=1.0              | gzip",
			"gzip;q=1.0, identity; q=0.5, *;q=0      | gzip",
			// What browsers and tools send
			"gzip, deflate, br, zstd                 | zstd",
			"gzip, deflate, br                       | br",
			"gzip, deflate                           | gzip",
			"deflate, gzip;q=1.0, *;q=0.5            | gzip",
			// The client's weights win over the server's order
			"zstd;q=0.5, br;q=0.8, gzip;q=0.9        | gzip",
			"br;q=0.9, zstd;q=0.1                    | br",
			"gzip;q=0.001                            | gzip",
			// Exclusions
			"zstd;q=0, *                             | br",
			"zstd;q=0, br;q=0, *                     | gzip",
			"*;q=0                                   | identity",
			"gzip;q=0                                | identity",
			"identity;q=0                            | identity",
			"identity;q=0, br                        | br",
			// identity preferred when the client says so, not by default
			"gzip;q=0.5                              | gzip",
			"gzip;q=0.5, identity;q=0.8              | identity",
			"*;q=0.9, identity                       | identity",
			"identity, gzip                          | gzip",
			// Spelling: case, spaces, x-gzip, unknown parameters, repeated entries
			"GZip ; Q=0.7 , BR;q=0.6                 | gzip",
			"x-gzip                                  | gzip",
			"br;level=5                              | br",
			"br;q=0.2;foo=bar, gzip;q=0.1            | br",
			"gzip;q=0, gzip                          | gzip",
			" , ,gzip,,                              | gzip",
			// Malformed q-values drop their element only
			"br;q=2, gzip                            | gzip",
			"br;q=0.0001, gzip;q=0.5                 | gzip",
			"br;q=abc, gzip;q=0.5                    | gzip",
			"br;q=1.5, gzip;q=0.5                    | gzip",
			"br;q=, gzip;q=0.5                       | gzip",
			"br;q=1.000, gzip                        | br",
			"compress, deflate, sdch                 | identity" })
	void theCodingFollowsTheClientsWeightsThenTheServersOrder(String acceptEncoding, String expected) {
		ContentCoding coding = AcceptEncoding.negotiate(List.of(acceptEncoding), ALL);
		assertThat((coding != null) ? coding.token() : null).isEqualTo(expected);
	}

	@Test
	void noHeaderMeansIdentity() {
		assertThat(AcceptEncoding.negotiate(List.of(), ALL)).isNull();
	}

	@Test
	void severalHeaderLinesAreOneList() {
		assertThat(AcceptEncoding.negotiate(List.of("gzip;q=0.4", "br;q=0.6"), ALL)).isEqualTo(ContentCoding.BR);
		assertThat(AcceptEncoding.negotiate(List.of("br;q=0", "*"), ALL)).isEqualTo(ContentCoding.ZSTD);
	}

	@Test
	void onlyTheOfferedCodingsAreChosen() {
		assertThat(AcceptEncoding.negotiate(List.of("zstd, br, gzip"), List.of(ContentCoding.GZIP)))
			.isEqualTo(ContentCoding.GZIP);
		assertThat(AcceptEncoding.negotiate(List.of("zstd, br"), List.of(ContentCoding.GZIP))).isNull();
		assertThat(AcceptEncoding.negotiate(List.of("*"), List.of(ContentCoding.GZIP, ContentCoding.BR)))
			.isEqualTo(ContentCoding.GZIP);
	}

}
