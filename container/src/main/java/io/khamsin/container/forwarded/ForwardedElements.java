package io.khamsin.container.forwarded;

import java.util.ArrayList;
import java.util.List;

/**
 * The elements of {@code Forwarded} headers (RFC 7239 section 4): one per proxy, left to right, each with the
 * {@code for}, {@code host} and {@code proto} it carries ({@code by} is not used). Values may be tokens or quoted
 * strings, in which commas and semicolons do not separate. A malformed pair is skipped; a parameter given twice in
 * one element keeps its first value.
 */
final class ForwardedElements {

	record Element(String forNode, String host, String proto) {

		static final Element EMPTY = new Element(null, null, null);

	}

	private ForwardedElements() {
	}

	static List<Element> parse(List<String> headers) {
		List<Element> elements = new ArrayList<>(4);
		for (String header : headers) {
			parse(header, elements);
		}
		return elements;
	}

	private static void parse(String header, List<Element> elements) {
		String forNode = null;
		String host = null;
		String proto = null;
		boolean seen = false;
		int i = 0;
		int length = header.length();
		while (i <= length) {
			i = skipSpace(header, i);
			int nameStart = i;
			while (i < length && isTokenChar(header.charAt(i))) {
				i++;
			}
			String name = header.substring(nameStart, i);
			String value = null;
			i = skipSpace(header, i);
			if (!name.isEmpty() && i < length && header.charAt(i) == '=') {
				i = skipSpace(header, i + 1);
				if (i < length && header.charAt(i) == '"') {
					StringBuilder quoted = new StringBuilder();
					i++;
					while (i < length && header.charAt(i) != '"') {
						char c = header.charAt(i);
						if (c == '\\' && i + 1 < length) {
							c = header.charAt(++i);
						}
						quoted.append(c);
						i++;
					}
					value = (i < length) ? quoted.toString() : null;
					i++;
				}
				else {
					int valueStart = i;
					while (i < length && isTokenChar(header.charAt(i))) {
						i++;
					}
					value = (i > valueStart) ? header.substring(valueStart, i) : null;
				}
				i = skipSpace(header, i);
			}
			// Anything else up to the next separator makes the pair malformed.
			boolean wellFormed = value != null && (i >= length || header.charAt(i) == ';' || header.charAt(i) == ',');
			while (i < length && header.charAt(i) != ';' && header.charAt(i) != ',') {
				i++;
			}
			if (wellFormed) {
				seen = true;
				if (name.equalsIgnoreCase("for") && forNode == null) {
					forNode = value;
				}
				else if (name.equalsIgnoreCase("host") && host == null) {
					host = value;
				}
				else if (name.equalsIgnoreCase("proto") && proto == null) {
					proto = value;
				}
			}
			else if (!name.isEmpty()) {
				seen = true;
			}
			if (i >= length || header.charAt(i) == ',') {
				if (seen) {
					elements.add((forNode == null && host == null && proto == null) ? Element.EMPTY
							: new Element(forNode, host, proto));
				}
				forNode = null;
				host = null;
				proto = null;
				seen = false;
			}
			i++;
		}
	}

	private static int skipSpace(String value, int i) {
		while (i < value.length() && (value.charAt(i) == ' ' || value.charAt(i) == '\t')) {
			i++;
		}
		return i;
	}

	/** tchar (RFC 9110 section 5.6.2). */
	private static boolean isTokenChar(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
				|| "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
	}

}
