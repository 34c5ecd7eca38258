package io.khamsin.container.forwarded;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * The syntax of the values proxies forward: a host with an optional port, a port, a scheme, a node (the address of
 * a hop, RFC 7239 section 6) and a path prefix. Each parser answers {@code null} (or {@code -1}) for a value that
 * does not parse, which is then ignored; none looks a name up.
 */
final class ForwardedValues {

	/** A host as in a URI ({@code [v6]} bracketed), and its port or {@code -1}. */
	record HostAndPort(String host, int port) {
	}

	/** A hop: its address, or the {@code unknown} or obfuscated identifier that stands for it, and its port or -1. */
	record Node(InetAddress address, String identifier, int port) {
	}

	private static final int MAX_HOST_LENGTH = 255;

	private ForwardedValues() {
	}

	static HostAndPort hostAndPort(String value) {
		if (value == null || value.isEmpty() || value.length() > MAX_HOST_LENGTH + 6) {
			return null;
		}
		String host;
		String rest;
		if (value.charAt(0) == '[') {
			int close = value.indexOf(']');
			if (close < 0 || AddressBlock.literal(value.substring(0, close + 1)) == null
					|| !isIpv6(value.substring(1, close))) {
				return null;
			}
			host = value.substring(0, close + 1);
			rest = value.substring(close + 1);
		}
		else {
			int colon = value.indexOf(':');
			host = (colon >= 0) ? value.substring(0, colon) : value;
			rest = (colon >= 0) ? value.substring(colon) : "";
			if (host.isEmpty() || host.length() > MAX_HOST_LENGTH || !host.chars().allMatch(ForwardedValues::isHostChar)) {
				return null;
			}
		}
		if (rest.isEmpty() || rest.equals(":")) {
			return new HostAndPort(host, -1);
		}
		if (rest.charAt(0) != ':') {
			return null;
		}
		int port = port(rest.substring(1));
		return (port > 0) ? new HostAndPort(host, port) : null;
	}

	/** A port from 1 to 65535, or -1. */
	static int port(String value) {
		if (value == null || value.isEmpty() || value.length() > 5 || !value.chars().allMatch(ForwardedValues::isDigit)) {
			return -1;
		}
		int port = Integer.parseInt(value);
		return (port >= 1 && port <= 65535) ? port : -1;
	}

	/** A scheme (RFC 3986 section 3.1), in lower case, or {@code null}. */
	static String scheme(String value) {
		if (value == null || value.isEmpty() || value.length() > 32 || !isAlpha(value.charAt(0))) {
			return null;
		}
		for (int i = 1; i < value.length(); i++) {
			char c = value.charAt(i);
			if (!isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.') {
				return null;
			}
		}
		return value.toLowerCase(Locale.ROOT);
	}

	/**
	 * A node: {@code 192.0.2.43}, {@code 192.0.2.43:4711}, {@code [2001:db8::17]}, {@code [2001:db8::17]:4711}, a
	 * bare IPv6 address (as {@code X-Forwarded-For} often has it), {@code unknown} or {@code _obfuscated}, with an
	 * optional port (an obfuscated port counts as none); {@code null} when it is none of these.
	 */
	static Node node(String value) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		if (value.indexOf(':') != value.lastIndexOf(':') && value.charAt(0) != '[') {
			byte[] bare = AddressBlock.literal(value);
			return (bare != null) ? new Node(address(bare), null, -1) : null;
		}
		String name;
		String portText = null;
		if (value.charAt(0) == '[') {
			int close = value.indexOf(']');
			if (close < 0) {
				return null;
			}
			name = value.substring(0, close + 1);
			if (close + 1 < value.length()) {
				if (value.charAt(close + 1) != ':') {
					return null;
				}
				portText = value.substring(close + 2);
			}
		}
		else {
			int colon = value.indexOf(':');
			name = (colon >= 0) ? value.substring(0, colon) : value;
			portText = (colon >= 0) ? value.substring(colon + 1) : null;
		}
		int port = -1;
		if (portText != null && !isObfuscated(portText)) {
			port = port(portText);
			if (port < 0) {
				return null;
			}
		}
		if (name.isEmpty()) {
			return null;
		}
		if (name.equalsIgnoreCase("unknown") || isObfuscated(name)) {
			return new Node(null, name, port);
		}
		if (name.charAt(0) == '[' && !isIpv6(name.substring(1, name.length() - 1))) {
			return null;
		}
		byte[] bytes = AddressBlock.literal(name);
		return (bytes != null) ? new Node(address(bytes), null, port) : null;
	}

	/**
	 * A path prefix: the values of every {@code X-Forwarded-Prefix}, each without its trailing slashes, joined as
	 * Spring and Reactor Netty join them; {@code ""} for none, {@code null} when one is not an absolute path.
	 */
	static String prefix(Iterable<String> values) {
		StringBuilder prefix = new StringBuilder();
		for (String value : values) {
			for (String part : value.split(",")) {
				String trimmed = part.trim();
				int end = trimmed.length();
				while (end > 0 && trimmed.charAt(end - 1) == '/') {
					end--;
				}
				if (trimmed.isEmpty()) {
					continue;
				}
				if (trimmed.charAt(0) != '/' || !trimmed.chars().allMatch(ForwardedValues::isPathChar)
						|| !isPercentEncodedWell(trimmed)) {
					return null;
				}
				prefix.append(trimmed, 0, end);
			}
		}
		return prefix.toString();
	}

	/** Every {@code %} followed by two hex digits (RFC 3986 section 2.1), as the request's URI requires. */
	private static boolean isPercentEncodedWell(String value) {
		for (int i = value.indexOf('%'); i >= 0; i = value.indexOf('%', i + 1)) {
			if (i + 2 >= value.length() || !isHexDigit(value.charAt(i + 1)) || !isHexDigit(value.charAt(i + 2))) {
				return false;
			}
		}
		return true;
	}

	private static boolean isHexDigit(char c) {
		return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	}

	private static boolean isObfuscated(String value) {
		if (value.length() < 2 || value.charAt(0) != '_') {
			return false;
		}
		for (int i = 1; i < value.length(); i++) {
			char c = value.charAt(i);
			if (!isAlpha(c) && !isDigit(c) && c != '.' && c != '_' && c != '-') {
				return false;
			}
		}
		return true;
	}

	private static boolean isIpv6(String value) {
		return value.indexOf(':') >= 0;
	}

	private static InetAddress address(byte[] bytes) {
		try {
			return InetAddress.getByAddress(bytes);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** unreserved (RFC 3986): a name, an IPv4 address; percent-encoding and sub-delims are refused. */
	private static boolean isHostChar(int c) {
		return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~';
	}

	/** pchar and "/" (RFC 3986 section 3.3). */
	private static boolean isPathChar(int c) {
		return isAlpha(c) || isDigit(c) || "-._~%!$&'()*+,;=:@/".indexOf(c) >= 0;
	}

	private static boolean isAlpha(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
	}

	private static boolean isDigit(int c) {
		return c >= '0' && c <= '9';
	}

}
