package io.khamsin.container.cache;

import java.util.List;

import io.netty.handler.codec.http.HttpRequest;

/**
 * A request as the page cache sees it, whatever protocol carried it: method, scheme, host, path, query and
 * headers. {@link #of(HttpRequest, String)} adapts a decoded HTTP/1.1 request head, or an HTTP/2 stream's head
 * converted to one by Netty's frame-to-HTTP-object codec.
 */
public interface CacheRequest {

	/** @return the method, upper case as sent */
	String method();

	/** @return {@code http} or {@code https} */
	String scheme();

	/** @return the host (and port) the request names, lower case, or {@code null} when it names none */
	String host();

	/** @return the raw path, starting with {@code /}, or {@code null} when the target is not in origin or absolute form */
	String path();

	/** @return the raw query without its {@code ?}, or {@code null} */
	String query();

	/**
	 * A request header.
	 * @param name its name, case-insensitive
	 * @return its first value, or {@code null}
	 */
	String header(CharSequence name);

	/**
	 * Every value of a request header.
	 * @param name its name, case-insensitive
	 * @return its values, possibly none
	 */
	List<String> headers(CharSequence name);

	/** @return whether the request announced a body */
	boolean hasBody();

	/**
	 * Adapt a decoded request head.
	 * @param request the head
	 * @param scheme {@code http} or {@code https}
	 * @return the view; nothing is copied but the target's parts
	 */
	static CacheRequest of(HttpRequest request, String scheme) {
		return new NettyCacheRequest(request, scheme);
	}

}
