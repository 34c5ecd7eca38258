package io.khamsin.container.accesslog;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.netty.handler.codec.http.HttpRequest;
/**
 * A line format of Apache's {@code mod_log_config}: {@code common} ({@code %h %l %u %t "%r" %>s %b}),
 * {@code combined} (common, then {@code "%{Referer}i" "%{User-Agent}i"}), or a pattern of these directives:
 * {@code %h} client address, {@code %l} and {@code %u} ({@code -}), {@code %t} time the request was received,
 * {@code %r} request line, {@code %m} method, {@code %U} path, {@code %q} query string (with its {@code ?}),
 * {@code %H} protocol, {@code %s} or {@code %>s} status, {@code %b} response bytes ({@code -} for none or
 * unknown), {@code %B} (0 for none), {@code %D} time taken in microseconds, {@code %T} in seconds,
 * {@code %{Name}i} a request header, {@code %%} a percent sign. A response to a request whose head could not be
 * read has {@code -} for its request line and each of its parts.
 */
public final class AccessLogFormat {

	private static final String COMMON = "%h %l %u %t \"%r\" %>s %b";

	private static final String COMBINED = COMMON + " \"%{Referer}i\" \"%{User-Agent}i\"";

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("'['dd/MMM/yyyy:HH:mm:ss Z']'",
			Locale.ROOT).withZone(ZoneId.systemDefault());

	private final List<Part> parts;

	private AccessLogFormat(List<Part> parts) {
		this.parts = parts;
	}

	/**
	 * Parse a format.
	 * @param format {@code common}, {@code combined} or a pattern
	 * @return the format
	 * @throws IllegalArgumentException naming the directive that is not understood
	 */
	public static AccessLogFormat parse(String format) {
		String pattern = switch (format) {
			case "common" -> COMMON;
			case "combined" -> COMBINED;
			default -> format;
		};
		List<Part> parts = new ArrayList<>();
		StringBuilder literal = new StringBuilder();
		for (int i = 0; i < pattern.length(); i++) {
			char c = pattern.charAt(i);
			if (c != '%') {
				literal.append(c);
				continue;
			}
			int start = i;
			if (++i == pattern.length()) {
				throw unknown(format, start, "%");
			}
			c = pattern.charAt(i);
			if (c == '%') {
				literal.append('%');
				continue;
			}
			if (literal.length() > 0) {
				String text = literal.toString();
				parts.add((entry, out) -> out.append(text));
				literal.setLength(0);
			}
			if (c == '>' && i + 1 < pattern.length() && pattern.charAt(i + 1) == 's') {
				i++;
				c = 's';
			}
			if (c == '{') {
				int end = pattern.indexOf('}', i);
				if (end < 0 || end + 1 >= pattern.length() || pattern.charAt(end + 1) != 'i' || end == i + 1) {
					throw unknown(format, start, pattern.substring(start, Math.min(pattern.length(), (end < 0) ? i + 1 : end + 2)));
				}
				String header = pattern.substring(i + 1, end);
				parts.add((entry, out) -> dash(out, (entry.request() != null) ? entry.request().headers().get(header) : null));
				i = end + 1;
				continue;
			}
			parts.add(switch (c) {
				case 'h' -> (entry, out) -> out.append(host(entry.remoteAddress()));
				case 'l', 'u' -> (entry, out) -> out.append('-');
				case 't' -> (entry, out) -> TIME.formatTo(Instant.ofEpochMilli(entry.receivedMillis()), out);
				case 'r' -> (entry, out) -> requestLine(entry.request(), out);
				case 'm' -> (entry, out) -> dash(out, (entry.request() != null) ? entry.request().method().name() : null);
				case 'U' -> (entry, out) -> dash(out, (entry.request() != null) ? path(entry.request().uri()) : null);
				case 'q' -> (entry, out) -> out.append((entry.request() != null) ? query(entry.request().uri()) : "");
				case 'H' -> (entry, out) -> dash(out,
						(entry.request() != null) ? entry.request().protocolVersion().text() : null);
				case 's' -> (entry, out) -> out.append(entry.status());
				case 'b' -> (entry, out) -> out.append((entry.bytes() > 0) ? Long.toString(entry.bytes()) : "-");
				case 'B' -> (entry, out) -> out.append(Math.max(0, entry.bytes()));
				case 'D' -> (entry, out) -> out.append(entry.durationNanos() / 1_000);
				case 'T' -> (entry, out) -> out.append(entry.durationNanos() / 1_000_000_000);
				default -> throw unknown(format, start, pattern.substring(start, i + 1));
			});
		}
		if (literal.length() > 0) {
			String text = literal.toString();
			parts.add((entry, out) -> out.append(text));
		}
		return new AccessLogFormat(List.copyOf(parts));
	}

	private static IllegalArgumentException unknown(String format, int position, String directive) {
		return new IllegalArgumentException("Access log format '" + format + "' has an unknown directive '"
				+ directive + "' at position " + position + ": use 'common', 'combined' or a pattern of %h %l %u %t "
				+ "%r %m %U %q %H %s %>s %b %B %D %T %{Header}i %%");
	}

	/**
	 * Append the line of one request, without a line separator.
	 * @param entry the request
	 * @param out where to append
	 */
	void format(AccessLogEntry entry, StringBuilder out) {
		for (Part part : this.parts) {
			part.append(entry, out);
		}
	}

	private static void requestLine(HttpRequest request, StringBuilder out) {
		if (request == null) {
			// No request line could be read (a head that timed out, was too large or did not parse), as Apache logs it.
			out.append('-');
			return;
		}
		out.append(request.method().name()).append(' ').append(request.uri()).append(' ')
			.append(request.protocolVersion().text());
	}

	private static void dash(StringBuilder out, String value) {
		out.append((value != null) ? value : "-");
	}

	private static String host(SocketAddress address) {
		if (address instanceof InetSocketAddress inet) {
			return (inet.getAddress() != null) ? inet.getAddress().getHostAddress() : inet.getHostString();
		}
		return (address != null) ? address.toString() : "-";
	}

	private static String path(String uri) {
		int query = uri.indexOf('?');
		return (query >= 0) ? uri.substring(0, query) : uri;
	}

	private static String query(String uri) {
		int query = uri.indexOf('?');
		return (query >= 0) ? uri.substring(query) : "";
	}

	@FunctionalInterface
	private interface Part {

		void append(AccessLogEntry entry, StringBuilder out);

	}

}
