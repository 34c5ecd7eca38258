package io.khamsin.container.compression;

import java.util.List;

/**
 * The choice of a content coding from a request's {@code Accept-Encoding} (RFC 9110 section 12.5.3). A coding is
 * acceptable when the client names it, or names {@code *}, with a q-value above zero; among the acceptable codings
 * the highest q-value wins. Ties within one field line are broken by the server's order (zstd, br, gzip by
 * default): a client that lists {@code gzip, deflate, br, zstd} states no preference among them. Ties between
 * field lines go to the earlier line: a client that writes its codings one field at a time adds the ones it can
 * also decode after the one it asks for. Reactor Netty's {@code HttpClient.compress(true)} writes
 * {@code Accept-Encoding: gzip}, then {@code Accept-Encoding: br} in a field of its own when brotli4j is on its
 * class path, and Boot's containers answer it gzip, as Boot's own tests expect. {@code identity} wins only when the client names it
 * (or gives {@code *} the weight) with a higher q-value than the best coding. No header, an empty one, or nothing
 * acceptable means identity: RFC 9110 allows any coding when the header is absent, but clients that send none
 * (curl without {@code --compressed}, health checks) expect an uncompressed body, which is also what the other
 * containers send.
 * <p>
 * The header is parsed in place, with no allocation: a request's {@code Accept-Encoding} is parsed on every
 * response that could be compressed.
 */
public final class AcceptEncoding {

	private static final int UNSET = -1;

	private AcceptEncoding() {
	}

	/**
	 * The coding to answer with: the same rule for a fresh response and for a page-cache hit.
	 * @param values the {@code Accept-Encoding} header values of the request (several lines are one list)
	 * @param offered the codings offered, most preferred first; never {@link ContentCoding#IDENTITY}
	 * @return the coding, or {@code null} for identity
	 */
	public static ContentCoding negotiate(List<String> values, List<ContentCoding> offered) {
		if (values.isEmpty()) {
			return null;
		}
		int zstd = UNSET;
		int br = UNSET;
		int gzip = UNSET;
		int star = UNSET;
		int identity = UNSET;
		// The field line each weight above was first given at, so that an earlier line wins a tie.
		int zstdLine = 0;
		int brLine = 0;
		int gzipLine = 0;
		int starLine = 0;
		int line = -1;
		for (String value : values) {
			line++;
			int length = value.length();
			int start = 0;
			while (start <= length) {
				int end = value.indexOf(',', start);
				if (end < 0) {
					end = length;
				}
				int semicolon = value.indexOf(';', start);
				int tokenEnd = (semicolon >= 0 && semicolon < end) ? semicolon : end;
				int tokenStart = skipSpace(value, start, tokenEnd);
				tokenEnd = trimEnd(value, tokenStart, tokenEnd);
				if (tokenStart < tokenEnd) {
					int weight = (tokenEnd < end) ? weight(value, tokenEnd + 1, end) : 1000;
					if (weight != UNSET) {
						int tokenLength = tokenEnd - tokenStart;
						if (tokenLength == 1 && value.charAt(tokenStart) == '*') {
							if (weight > star) {
								star = weight;
								starLine = line;
							}
						}
						else if (matches(value, tokenStart, tokenLength, "identity")) {
							identity = Math.max(identity, weight);
						}
						else if (matches(value, tokenStart, tokenLength, "zstd")) {
							if (weight > zstd) {
								zstd = weight;
								zstdLine = line;
							}
						}
						else if (matches(value, tokenStart, tokenLength, "br")) {
							if (weight > br) {
								br = weight;
								brLine = line;
							}
						}
						else if (matches(value, tokenStart, tokenLength, "gzip")
								|| matches(value, tokenStart, tokenLength, "x-gzip")) {
							if (weight > gzip) {
								gzip = weight;
								gzipLine = line;
							}
						}
					}
				}
				start = end + 1;
			}
		}
		ContentCoding best = null;
		int bestWeight = 0;
		int bestLine = Integer.MAX_VALUE;
		for (ContentCoding coding : offered) {
			int weight;
			int at;
			switch (coding) {
				case ZSTD -> {
					weight = zstd;
					at = zstdLine;
				}
				case BR -> {
					weight = br;
					at = brLine;
				}
				default -> {
					weight = gzip;
					at = gzipLine;
				}
			}
			if (weight == UNSET) {
				weight = (star != UNSET) ? star : 0;
				at = starLine;
			}
			// The server's order decides among codings of one weight on one line: the first offered stays.
			if ((weight > bestWeight || (weight == bestWeight && weight > 0 && at < bestLine))
					&& coding.isAvailable()) {
				best = coding;
				bestWeight = weight;
				bestLine = at;
			}
		}
		if (best != null && identity > bestWeight) {
			return null;
		}
		return best;
	}

	/**
	 * The q-value of the parameters in {@code [from, to)}, in thousandths; 1000 when there is no {@code q}
	 * parameter, {@link #UNSET} when it is malformed (the element is then ignored).
	 */
	private static int weight(String value, int from, int to) {
		int weight = 1000;
		int start = from;
		while (start < to) {
			int end = value.indexOf(';', start);
			if (end < 0 || end > to) {
				end = to;
			}
			int nameStart = skipSpace(value, start, end);
			int paramEnd = trimEnd(value, nameStart, end);
			if (paramEnd - nameStart >= 2 && (value.charAt(nameStart) == 'q' || value.charAt(nameStart) == 'Q')) {
				int equals = skipSpace(value, nameStart + 1, paramEnd);
				if (equals < paramEnd && value.charAt(equals) == '=') {
					weight = qvalue(value, skipSpace(value, equals + 1, paramEnd), paramEnd);
					if (weight == UNSET) {
						return UNSET;
					}
				}
			}
			start = end + 1;
		}
		return weight;
	}

	/** qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ) (RFC 9110 section 12.4.2). */
	private static int qvalue(String value, int from, int to) {
		if (from >= to) {
			return UNSET;
		}
		char first = value.charAt(from);
		if (first != '0' && first != '1') {
			return UNSET;
		}
		int thousandths = 0;
		if (from + 1 < to) {
			if (value.charAt(from + 1) != '.' || to - (from + 2) > 3) {
				return UNSET;
			}
			int scale = 100;
			for (int i = from + 2; i < to; i++) {
				char digit = value.charAt(i);
				if (digit < '0' || digit > '9') {
					return UNSET;
				}
				thousandths += (digit - '0') * scale;
				scale /= 10;
			}
		}
		if (first == '1') {
			return (thousandths == 0) ? 1000 : UNSET;
		}
		return thousandths;
	}

	private static boolean matches(String value, int start, int length, String token) {
		return length == token.length() && value.regionMatches(true, start, token, 0, length);
	}

	private static int skipSpace(String value, int from, int to) {
		while (from < to && isSpace(value.charAt(from))) {
			from++;
		}
		return from;
	}

	private static int trimEnd(String value, int from, int to) {
		while (to > from && isSpace(value.charAt(to - 1))) {
			to--;
		}
		return to;
	}

	private static boolean isSpace(char c) {
		return c == ' ' || c == '\t';
	}

}
