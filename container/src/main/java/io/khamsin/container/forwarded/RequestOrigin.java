package io.khamsin.container.forwarded;

import java.net.InetSocketAddress;

/**
 * A request as its client sent it, before the proxies in front of the server: what the request adapter builds the
 * request's URI ({@code scheme://authority + prefix + target}), context path ({@link #prefix()}) and remote address
 * from.
 *
 * @param scheme the scheme, in lower case ({@code http}, {@code https})
 * @param host the host as it appears in a URI: a name, an IPv4 address, or an IPv6 address in brackets
 * @param port the port, the scheme's default when the client gave none
 * @param remoteAddress the client's address; unresolved when a proxy named it {@code unknown} or by an obfuscated
 * identifier (RFC 7239 section 6)
 * @param prefix the path prefix the proxies strip ({@code X-Forwarded-Prefix}), starting with {@code /} and without a
 * trailing one, or empty
 */
public record RequestOrigin(String scheme, String host, int port, InetSocketAddress remoteAddress, String prefix) {

	/**
	 * The default port of a scheme: 443 for {@code https} and {@code wss}, 80 otherwise.
	 * @param scheme the scheme
	 * @return the port
	 */
	public static int defaultPort(String scheme) {
		return (scheme.equals("https") || scheme.equals("wss")) ? 443 : 80;
	}

	/**
	 * The authority for the request's URI: the host, and the port unless it is the scheme's default.
	 * @return the authority
	 */
	public String authority() {
		return (this.port == defaultPort(this.scheme)) ? this.host : this.host + ":" + this.port;
	}

}
