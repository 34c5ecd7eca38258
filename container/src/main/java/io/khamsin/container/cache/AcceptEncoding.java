package io.khamsin.container.cache;

import java.util.List;

/**
 * Picks the coding of a hit from the request's {@code Accept-Encoding} (RFC 9110, section 12.5.3): the first of
 * the cache's encoders, in their order of preference, that the client accepts with a non-zero weight; identity when
 * none. Reads the field in place, with no allocation.
 */
final class AcceptEncoding {

	private AcceptEncoding() {
	}

	/**
	 * @param header the field, or {@code null}
	 * @param encoders the encoders, most preferred first
	 * @return the chosen encoder, or {@code null} for identity
	 */
	static VariantEncoder choose(String header, List<VariantEncoder> encoders) {
		if (header == null || header.isEmpty() || encoders.isEmpty()) {
			return null;
		}
		for (int i = 0; i < encoders.size(); i++) {
			VariantEncoder encoder = encoders.get(i);
			if (accepts(header, encoder.coding().token())) {
				return encoder;
			}
		}
		return null;
	}

	/** @return whether the field gives a token (or {@code *}) a weight above zero */
	static boolean accepts(String header, String token) {
		boolean wildcard = false;
		int length = header.length();
		int start = 0;
		while (start < length) {
			int end = header.indexOf(',', start);
			if (end < 0) {
				end = length;
			}
			int nameStart = skipSpaces(header, start, end);
			int nameEnd = nameStart;
			while (nameEnd < end && header.charAt(nameEnd) != ';' && header.charAt(nameEnd) != ' ') {
				nameEnd++;
			}
			boolean positive = !zeroWeight(header, nameEnd, end);
			int nameLength = nameEnd - nameStart;
			if (nameLength == token.length() && header.regionMatches(true, nameStart, token, 0, nameLength)) {
				return positive;
			}
			if (nameLength == 1 && header.charAt(nameStart) == '*') {
				wildcard = positive;
			}
			start = end + 1;
		}
		return wildcard;
	}

	private static boolean zeroWeight(String header, int from, int end) {
		int q = header.indexOf("q=", from);
		if (q < 0 || q >= end) {
			q = header.indexOf("Q=", from);
			if (q < 0 || q >= end) {
				return false;
			}
		}
		for (int i = q + 2; i < end; i++) {
			char c = header.charAt(i);
			if (c >= '1' && c <= '9') {
				return false;
			}
			if (c != '0' && c != '.') {
				break;
			}
		}
		return true;
	}

	private static int skipSpaces(String header, int from, int end) {
		int i = from;
		while (i < end && (header.charAt(i) == ' ' || header.charAt(i) == '\t')) {
			i++;
		}
		return i;
	}

}
