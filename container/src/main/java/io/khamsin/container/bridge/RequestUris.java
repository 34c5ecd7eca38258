package io.khamsin.container.bridge;

import java.net.URI;
import java.net.URISyntaxException;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;

/**
 * The absolute URIs of one connection's requests. A keep-alive client mostly asks for the same target with the same
 * {@code Host} again, so the last URI is kept and reused when both match: parsing a URI is one of the larger costs
 * of a small request. One instance per connection, used on its event loop only.
 */
public final class RequestUris {

	private String target;

	private String host;

	private URI uri;

	/**
	 * The absolute URI of a request, from its target and {@code Host} header.
	 * @param request the request
	 * @param channel the channel it came on
	 * @param scheme {@code http} or {@code https}
	 * @return the URI
	 * @throws URISyntaxException if the request target is not a valid URI
	 */
	public URI uriOf(HttpRequest request, Channel channel, String scheme) throws URISyntaxException {
		String target = request.uri();
		String host = request.headers().get(HttpHeaderNames.HOST);
		URI uri = this.uri;
		if (uri != null && target.equals(this.target) && (host == null ? this.host == null : host.equals(this.host))
				&& scheme.equals(uri.getScheme())) {
			return uri;
		}
		uri = KhamsinServerHttpRequest.uriOf(target, host, channel, scheme);
		this.target = target;
		this.host = host;
		this.uri = uri;
		return uri;
	}

}
