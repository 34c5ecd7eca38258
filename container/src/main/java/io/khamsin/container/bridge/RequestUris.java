package io.khamsin.container.bridge;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.concurrent.FastThreadLocal;

import io.khamsin.container.forwarded.RequestOrigin;

/**
 * The absolute URIs of the requests one reactor serves. Clients mostly ask for the same few targets with the same
 * {@code Host}, and parsing a URI is one of the larger costs of a small request, so recent URIs are kept in a small
 * direct-mapped table and reused when target, host and scheme all match. One table per reactor thread, so that it
 * needs no locks and costs an idle connection nothing.
 */
public final class RequestUris {

	private static final int SLOTS = 64;

	private static final FastThreadLocal<RequestUris> PER_THREAD = new FastThreadLocal<>() {

		@Override
		protected RequestUris initialValue() {
			return new RequestUris();
		}

	};

	private final String[] targets = new String[SLOTS];

	private final String[] hosts = new String[SLOTS];

	private final URI[] uris = new URI[SLOTS];

	RequestUris() {
	}

	/**
	 * The absolute URI of a request: where trusted proxies say it came from, else from its target and {@code Host}
	 * header, through the table of the calling reactor thread.
	 * @param request the request
	 * @param connection the connection it came on
	 * @param origin where trusted proxies say the request came from, or {@code null} to take it as it came
	 * @return the URI
	 * @throws URISyntaxException if the request target is not a valid URI
	 */
	public static URI of(HttpRequest request, ConnectionInfo connection, RequestOrigin origin)
			throws URISyntaxException {
		return (origin != null) ? uriOf(request.uri(), origin) : PER_THREAD.get().uriOf(request, connection);
	}

	/**
	 * The absolute URI of a request, from its target and {@code Host} header.
	 * @param request the request
	 * @param connection the connection it came on: its scheme, and its local address for a missing {@code Host}
	 * @return the URI
	 * @throws URISyntaxException if the request target is not a valid URI
	 */
	URI uriOf(HttpRequest request, ConnectionInfo connection) throws URISyntaxException {
		String scheme = connection.scheme();
		String target = request.uri();
		String host = request.headers().get(HttpHeaderNames.HOST);
		int slot = (target.hashCode() * 31 + ((host != null) ? host.hashCode() : 0)) & (SLOTS - 1);
		URI uri = this.uris[slot];
		if (uri != null && target.equals(this.targets[slot])
				&& ((host != null) ? host.equals(this.hosts[slot]) : this.hosts[slot] == null)
				&& scheme.equals(uri.getScheme())) {
			return uri;
		}
		uri = uriOf(target, host, connection);
		if (host == null) {
			// Built from the channel's local address: not the same for every connection of the reactor.
			return uri;
		}
		this.targets[slot] = target;
		this.hosts[slot] = host;
		this.uris[slot] = uri;
		return uri;
	}

	/**
	 * Build the absolute URI of a request that came through trusted proxies, as Spring's adapter of Reactor Netty
	 * builds it: the client's scheme and authority, the prefix the proxies strip, then the path and query of the
	 * target.
	 * @param target the request target
	 * @param origin where the proxies say the request came from
	 * @return the URI
	 * @throws URISyntaxException if the request target is not a valid URI
	 */
	static URI uriOf(String target, RequestOrigin origin) throws URISyntaxException {
		String path = target;
		if (target.startsWith("http://") || target.startsWith("https://")) {
			int slash = target.indexOf('/', target.indexOf("//") + 2);
			path = (slash >= 0) ? target.substring(slash) : "/";
		}
		else if (!target.startsWith("/")) {
			path = "/" + target;
		}
		return new URI(origin.scheme() + "://" + origin.authority() + origin.prefix() + path);
	}

	/**
	 * Build the absolute URI of a request from its target and {@code Host} header.
	 * @param target the request target
	 * @param host the {@code Host} header, or {@code null}
	 * @param connection the connection it came on, whose local address stands in for a missing {@code Host}
	 * @return the URI
	 * @throws URISyntaxException if the request target is not a valid URI
	 */
	static URI uriOf(String target, String host, ConnectionInfo connection) throws URISyntaxException {
		if (target.startsWith("http://") || target.startsWith("https://")) {
			return new URI(target);
		}
		if (host == null || host.isEmpty()) {
			InetSocketAddress local = connection.localAddress();
			if (local == null) {
				throw new URISyntaxException(target, "no Host header, and no local address to stand in for it");
			}
			String address = local.getAddress().getHostAddress();
			host = ((address.indexOf(':') >= 0) ? "[" + address + "]" : address) + ":" + local.getPort();
		}
		String scheme = connection.scheme();
		return new URI(scheme + "://" + host + (target.startsWith("/") ? target : "/" + target));
	}

}
