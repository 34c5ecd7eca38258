package io.khamsin.container.bridge;

import java.net.URI;
import java.net.URISyntaxException;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * The absolute URIs of the requests one reactor serves. Clients mostly ask for the same few targets with the same
 * {@code Host}, and parsing a URI is one of the larger costs of a small request, so recent URIs are kept in a small
 * direct-mapped table and reused when target, host and scheme all match. One table per reactor thread, so that it
 * needs no locks and costs an idle connection nothing.
 */
final class RequestUris {

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
	 * The table of the calling reactor thread.
	 * @return the table
	 */
	static RequestUris current() {
		return PER_THREAD.get();
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
		uri = KhamsinServerHttpRequest.uriOf(target, host, connection);
		if (host == null) {
			// Built from the channel's local address: not the same for every connection of the reactor.
			return uri;
		}
		this.targets[slot] = target;
		this.hosts[slot] = host;
		this.uris[slot] = uri;
		return uri;
	}

}
