package io.khamsin.container.cache;

import java.util.List;
import java.util.Locale;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;

/**
 * A {@link CacheRequest} over Netty's {@link HttpRequest}: the target is split once, the headers are read in place.
 */
final class NettyCacheRequest implements CacheRequest {

	private final HttpRequest request;

	private final String scheme;

	private final String host;

	private final String path;

	private final String query;

	NettyCacheRequest(HttpRequest request, String scheme) {
		this.request = request;
		this.scheme = scheme;
		String uri = request.uri();
		int start = 0;
		String authority = null;
		if (!uri.startsWith("/")) {
			// Absolute form (RFC 9112, section 3.2.2): its authority wins over Host.
			int schemeEnd = uri.indexOf("://");
			if (schemeEnd > 0) {
				int pathStart = uri.indexOf('/', schemeEnd + 3);
				authority = uri.substring(schemeEnd + 3, (pathStart < 0) ? uri.length() : pathStart);
				start = (pathStart < 0) ? -1 : pathStart;
			}
			else {
				start = -1;
			}
		}
		if (start < 0) {
			this.path = null;
			this.query = null;
		}
		else {
			int question = uri.indexOf('?', start);
			int fragment = uri.indexOf('#', start);
			int end = (fragment < 0) ? uri.length() : fragment;
			if (question >= 0 && question < end) {
				this.path = uri.substring(start, question);
				this.query = uri.substring(question + 1, end);
			}
			else {
				this.path = (start == 0 && end == uri.length()) ? uri : uri.substring(start, end);
				this.query = null;
			}
		}
		String host = (authority != null) ? authority : request.headers().get(HttpHeaderNames.HOST);
		this.host = (host != null && isAuthority(host)) ? host.toLowerCase(Locale.ROOT) : null;
	}

	/**
	 * Whether a host is made of the characters of an authority without user info (RFC 3986, section 3.2): one with a
	 * {@code /}, {@code ?}, {@code #} or {@code @} would make its page key spell another page's (a {@code Host} of
	 * {@code a/b} for {@code /c}, and {@code a} for {@code /b/c}), so its request is not looked up.
	 */
	private static boolean isAuthority(String host) {
		for (int i = 0; i < host.length(); i++) {
			char c = host.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
					|| "-._~%!$&'()*+,;=:[]".indexOf(c) >= 0)) {
				return false;
			}
		}
		return true;
	}

	@Override
	public String method() {
		return this.request.method().name();
	}

	@Override
	public String scheme() {
		return this.scheme;
	}

	@Override
	public String host() {
		return this.host;
	}

	@Override
	public String path() {
		return this.path;
	}

	@Override
	public String query() {
		return this.query;
	}

	@Override
	public String header(CharSequence name) {
		return this.request.headers().get(name);
	}

	@Override
	public List<String> headers(CharSequence name) {
		return this.request.headers().getAll(name);
	}

	@Override
	public boolean hasBody() {
		return HttpUtil.getContentLength(this.request, 0L) > 0 || HttpUtil.isTransferEncodingChunked(this.request);
	}

}
