package io.khamsin.container.http1.smuggling;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The committed corpus of ambiguous requests ({@code smuggling/corpus.txt}, whose head describes its format), read
 * into cases.
 */
final class SmugglingCorpus {

	/** The path of a request hidden in a body; it must never reach the application. */
	static final String SMUGGLED_PATH = "/smuggled";

	private static final String RESOURCE = "/smuggling/corpus.txt";

	private static final Map<String, String> MACROS = Map.of("$LONG", "a".repeat(20_000), "$ZEROS", "0".repeat(20_000));

	private SmugglingCorpus() {
	}

	static List<Case> cases() {
		try (InputStream in = SmugglingCorpus.class.getResourceAsStream(RESOURCE)) {
			if (in == null) {
				throw new IllegalStateException(RESOURCE + " is not on the test class path");
			}
			return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<Case> parse(List<String> lines) {
		List<Case> cases = new ArrayList<>();
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (!line.startsWith("== ")) {
				continue;
			}
			String[] head = line.substring(3).split(" \\| ", 3);
			String[] expectation = head[2].split(" ", 2);
			String description = lines.get(++i);
			List<String> request = new ArrayList<>();
			while (i + 1 < lines.size() && !lines.get(i + 1).isBlank()) {
				request.add(lines.get(++i));
			}
			cases.add(new Case(head[0], Protocol.valueOf(head[1].toUpperCase()), Expected.valueOf(expectation[0]),
					(expectation.length > 1) ? unescape(expectation[1]) : "", description, List.copyOf(request)));
		}
		return cases;
	}

	/**
	 * Replace the corpus's escapes ({@code \r}, {@code \n}, {@code \t}, {@code \\}, {@code \xHH}) by the characters
	 * they stand for.
	 */
	static String unescape(String text) {
		StringBuilder out = new StringBuilder(text.length());
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c != '\\' || i + 1 == text.length()) {
				out.append(c);
				continue;
			}
			char next = text.charAt(++i);
			switch (next) {
				case 'r' -> out.append('\r');
				case 'n' -> out.append('\n');
				case 't' -> out.append('\t');
				case '\\' -> out.append('\\');
				case 'x' -> {
					out.append((char) Integer.parseInt(text.substring(i + 1, i + 3), 16));
					i += 2;
				}
				default -> throw new IllegalArgumentException("Unknown escape \\" + next + " in " + text);
			}
		}
		return out.toString();
	}

	private static String expand(String text, String path) {
		String expanded = text.replace("$P", path);
		for (Map.Entry<String, String> macro : MACROS.entrySet()) {
			expanded = expanded.replace(macro.getKey(), macro.getValue());
		}
		return expanded;
	}

	/** How a case reaches a server. */
	enum Protocol {

		/** Raw HTTP/1.1 bytes on a TCP connection. */
		H1,

		/** HTTP/2 with prior knowledge. */
		H2

	}

	/** What khamsin must make of a case it receives directly. */
	enum Expected {

		/** A 4xx (or 501, 505) and the connection closed, or a reset stream; the application reads nothing whole. */
		REJECT,

		/** Exactly one request read by the application, with the expected body; the connection stays usable. */
		PARSE

	}

	/**
	 * One ambiguous request.
	 * @param id its name, which is also the last segment of its path
	 * @param protocol how it is sent
	 * @param expected what khamsin must make of it
	 * @param body the body the application must see when it parses the request
	 * @param description what the case is
	 * @param request its lines as written in the corpus
	 */
	record Case(String id, Protocol protocol, Expected expected, String body, String description, List<String> request) {

		/** @return the HTTP/1.1 bytes of the request, with {@code $P} standing for {@code path} */
		byte[] h1Bytes(String path) {
			return unescape(expand(String.join("", this.request), path)).getBytes(StandardCharsets.ISO_8859_1);
		}

		/** @return the HTTP/2 header fields of the request, in order, as name and value */
		List<String[]> h2Fields(String path) {
			List<String[]> fields = new ArrayList<>();
			for (String line : this.request) {
				if (!line.startsWith("DATA ")) {
					int colon = line.indexOf(": ", 1);
					fields.add(new String[] { unescape(line.substring(0, colon)),
							unescape(expand(line.substring(colon + 2), path)) });
				}
			}
			return fields;
		}

		/** @return the payloads of the request's DATA frames, in order */
		List<byte[]> h2Data() {
			return this.request.stream()
				.filter((line) -> line.startsWith("DATA "))
				.map((line) -> unescape(line.substring(5)).getBytes(StandardCharsets.ISO_8859_1))
				.toList();
		}

	}

}
