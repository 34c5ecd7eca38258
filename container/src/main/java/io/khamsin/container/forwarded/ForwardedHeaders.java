package io.khamsin.container.forwarded;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

import io.khamsin.container.forwarded.ForwardedElements.Element;
import io.khamsin.container.forwarded.ForwardedValues.HostAndPort;
import io.khamsin.container.forwarded.ForwardedValues.Node;

/**
 * Reads where a request came from out of the headers its proxies added, as Reactor Netty's
 * {@code DefaultHttpForwardedHeaderHandler} does, with two differences that make it safe to switch on:
 * <ul>
 * <li>Nothing is read unless the connection's peer is a trusted proxy, and then the hop used is the right-most one
 * whose address is not a trusted proxy: entries to its left were written by the client, or by proxies no one
 * vouches for, and are ignored. Reactor Netty takes the left-most entry, which any client can write.</li>
 * <li>A value that does not parse (a port that is not a number, a host with characters no host has, a prefix that
 * is not a path) is ignored and the request is served, where Reactor Netty refuses it.</li>
 * </ul>
 * As in Reactor Netty, {@code Forwarded} (RFC 7239) wins over the {@code X-Forwarded-*} headers when both are
 * present; {@code X-Forwarded-Prefix}, which RFC 7239 has no counterpart of, is read with either, as Spring's
 * {@code ForwardedHeaderTransformer} does. {@code X-Forwarded-Proto}, {@code -Host} and {@code -Port} lists are read
 * at the chosen hop's position when they have as many entries as {@code X-Forwarded-For} (every proxy appended),
 * otherwise their right-most entry is (the nearest proxy set it).
 * <p>
 * Thread-safe.
 */
public final class ForwardedHeaders {

	private static final String FORWARDED = "Forwarded";

	private static final String X_FORWARDED_FOR = "X-Forwarded-For";

	private static final String X_FORWARDED_PROTO = "X-Forwarded-Proto";

	private static final String X_FORWARDED_HOST = "X-Forwarded-Host";

	private static final String X_FORWARDED_PORT = "X-Forwarded-Port";

	private static final String X_FORWARDED_PREFIX = "X-Forwarded-Prefix";

	private final boolean enabled;

	private final List<AddressBlock> trustedProxies;

	/**
	 * Build the reader of a configuration.
	 * @param config the configuration
	 */
	public ForwardedHeaders(ForwardedConfig config) {
		if (config == null) {
			throw new IllegalArgumentException("config must not be null");
		}
		this.enabled = config.enabled();
		this.trustedProxies = config.trustedProxies().stream().map(AddressBlock::parse).toList();
	}

	/**
	 * Whether an address is one of the trusted proxies.
	 * @param address the address
	 * @return {@code true} if its forwarded headers are believed
	 */
	public boolean isTrusted(InetAddress address) {
		for (AddressBlock block : this.trustedProxies) {
			if (block.contains(address)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Where a request came from.
	 * @param headers the request's headers
	 * @param scheme the scheme of the connection, {@code http} or {@code https}
	 * @param remoteAddress the connection's peer
	 * @param localAddress the connection's local address, the host of a request without {@code Host} (or
	 * {@code localhost} when it is {@code null})
	 * @return the origin, or {@code null} when the request is to be taken as it came: forwarded headers off, a peer
	 * that is not a trusted proxy, or no forwarded header
	 */
	public RequestOrigin resolve(HttpHeaders headers, String scheme, InetSocketAddress remoteAddress,
			InetSocketAddress localAddress) {
		if (!this.enabled || remoteAddress == null || !isTrusted(remoteAddress.getAddress())) {
			return null;
		}
		List<String> forwarded = headers.getAll(FORWARDED);
		List<String> forwardedFor = headers.getAll(X_FORWARDED_FOR);
		List<String> prefixes = headers.getAll(X_FORWARDED_PREFIX);
		if (forwarded.isEmpty() && forwardedFor.isEmpty() && prefixes.isEmpty()
				&& !headers.contains(X_FORWARDED_PROTO) && !headers.contains(X_FORWARDED_HOST)
				&& !headers.contains(X_FORWARDED_PORT)) {
			return null;
		}
		Origin origin = new Origin(scheme, headers.get(HttpHeaderNames.HOST), remoteAddress, localAddress);
		if (!forwarded.isEmpty()) {
			applyForwarded(ForwardedElements.parse(forwarded), origin);
		}
		else {
			applyXForwarded(headers, split(forwardedFor), origin);
		}
		String prefix = ForwardedValues.prefix(prefixes);
		return origin.build((prefix != null) ? prefix : "");
	}

	private void applyForwarded(List<Element> elements, Origin origin) {
		if (elements.isEmpty()) {
			return;
		}
		List<Node> nodes = new ArrayList<>(elements.size());
		for (Element element : elements) {
			nodes.add(ForwardedValues.node(element.forNode()));
		}
		int hop = chosenHop(nodes);
		Element element = elements.get(hop);
		origin.remote(nodes.get(hop));
		origin.scheme(element.proto());
		origin.host(element.host());
	}

	private void applyXForwarded(HttpHeaders headers, List<String> forwardedFor, Origin origin) {
		int hops = forwardedFor.size();
		int hop = 0;
		if (hops > 0) {
			List<Node> nodes = new ArrayList<>(hops);
			for (String entry : forwardedFor) {
				nodes.add(ForwardedValues.node(entry));
			}
			hop = chosenHop(nodes);
			origin.remote(nodes.get(hop));
		}
		origin.scheme(atHop(headers, X_FORWARDED_PROTO, hop, hops));
		origin.host(atHop(headers, X_FORWARDED_HOST, hop, hops));
		String port = atHop(headers, X_FORWARDED_PORT, hop, hops);
		if (port != null) {
			origin.port(ForwardedValues.port(port));
		}
	}

	/** The right-most hop that is not a trusted proxy, or the left-most if all are. */
	private int chosenHop(List<Node> nodes) {
		for (int i = nodes.size() - 1; i > 0; i--) {
			Node node = nodes.get(i);
			if (node == null || node.address() == null || !isTrusted(node.address())) {
				return i;
			}
		}
		return 0;
	}

	private static String atHop(HttpHeaders headers, String name, int hop, int hops) {
		List<String> values = split(headers.getAll(name));
		if (values.isEmpty()) {
			return null;
		}
		return (values.size() == hops) ? values.get(hop) : values.get(values.size() - 1);
	}

	private static List<String> split(List<String> headers) {
		if (headers.isEmpty()) {
			return headers;
		}
		List<String> values = new ArrayList<>(4);
		for (String header : headers) {
			for (String value : header.split(",")) {
				String trimmed = value.trim();
				if (!trimmed.isEmpty()) {
					values.add(trimmed);
				}
			}
		}
		return values;
	}

	/** The origin being worked out: the connection's, changed by each value that parses. */
	private static final class Origin {

		private String scheme;

		private String host;

		private int hostPort;

		private int forwardedPort = -1;

		private InetSocketAddress remote;

		Origin(String scheme, String hostHeader, InetSocketAddress remote, InetSocketAddress local) {
			this.scheme = scheme;
			this.remote = remote;
			HostAndPort host = ForwardedValues.hostAndPort(hostHeader);
			if (host != null) {
				this.host = host.host();
				this.hostPort = host.port();
			}
			else if (local == null || local.getAddress() == null) {
				this.host = "localhost";
				this.hostPort = -1;
			}
			else {
				String address = local.getAddress().getHostAddress();
				this.host = (address.indexOf(':') >= 0) ? "[" + address + "]" : address;
				this.hostPort = local.getPort();
			}
		}

		void scheme(String value) {
			String scheme = ForwardedValues.scheme(value);
			if (scheme != null) {
				this.scheme = scheme;
			}
		}

		void host(String value) {
			HostAndPort host = ForwardedValues.hostAndPort(value);
			if (host != null) {
				this.host = host.host();
				this.hostPort = host.port();
			}
		}

		void port(int port) {
			if (port > 0) {
				this.forwardedPort = port;
			}
		}

		void remote(Node node) {
			if (node == null) {
				return;
			}
			int port = (node.port() > 0) ? node.port() : this.remote.getPort();
			this.remote = (node.address() != null) ? new InetSocketAddress(node.address(), port)
					: InetSocketAddress.createUnresolved(node.identifier(), port);
		}

		RequestOrigin build(String prefix) {
			int port = (this.forwardedPort > 0) ? this.forwardedPort
					: (this.hostPort > 0) ? this.hostPort : RequestOrigin.defaultPort(this.scheme);
			return new RequestOrigin(this.scheme, this.host, port, this.remote, prefix);
		}

	}

}
