package io.khamsin.container.bridge;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.http.support.Netty4HeadersAdapter;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;

import io.khamsin.container.forwarded.RequestOrigin;

/**
 * A Spring {@code ServerHttpRequest} over a Netty {@link HttpRequest}: the headers are adapted, not copied;
 * cookies are parsed on first use; the body streams with demand-driven reading; addresses and the TLS session
 * are those of its connection ({@link ConnectionInfo}), except where trusted proxies forwarded the client's scheme,
 * host, port, address and path prefix ({@link RequestOrigin}), which the URI, context path and remote address then
 * take.
 */
public final class KhamsinServerHttpRequest extends AbstractServerHttpRequest {

	// HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE and RouterFunctions.MATCHING_PATTERN_ATTRIBUTE, spelled out:
	// WebFlux is optional here. A router function served without a DispatcherHandler sets only the second.

	private static final String BEST_MATCHING_PATTERN_ATTRIBUTE = "org.springframework.web.reactive.HandlerMapping.bestMatchingPattern";

	private static final String MATCHING_PATTERN_ATTRIBUTE = "org.springframework.web.reactive.function.server.RouterFunctions.matchingPattern";

	private final HttpRequest request;

	private final ProtocolChannel channel;

	private final Flux<DataBuffer> body;

	private final long sequence;

	private final InetSocketAddress forwardedFor;

	private Map<String, Object> exchangeAttributes;

	/**
	 * A request as its protocol decoded it.
	 * @param request the decoded head
	 * @param uri its absolute URI ({@link RequestUris})
	 * @param origin where trusted proxies say the request came from, or {@code null} to take it as it came
	 * @param channel the protocol that carries it
	 * @param body its body
	 * @param sequence the number of the request on its connection, for its id
	 */
	public KhamsinServerHttpRequest(HttpRequest request, URI uri, RequestOrigin origin, ProtocolChannel channel,
			Flux<DataBuffer> body, long sequence) {
		super(HttpMethod.valueOf(request.method().name()), uri, (origin != null) ? origin.prefix() : "",
				new HttpHeaders(new Netty4HeadersAdapter(request.headers())));
		this.request = request;
		this.channel = channel;
		this.body = body;
		this.sequence = sequence;
		this.forwardedFor = (origin != null) ? origin.remoteAddress() : null;
	}

	@Override
	protected MultiValueMap<String, HttpCookie> initCookies() {
		MultiValueMap<String, HttpCookie> cookies = new LinkedMultiValueMap<>();
		for (String header : this.request.headers().getAll(HttpHeaderNames.COOKIE)) {
			for (Cookie cookie : ServerCookieDecoder.LAX.decodeAll(header)) {
				cookies.add(cookie.name(), new HttpCookie(cookie.name(), cookie.value()));
			}
		}
		return cookies;
	}

	@Override
	protected SslInfo initSslInfo() {
		return this.channel.connection().sslInfo();
	}

	@Override
	public InetSocketAddress getRemoteAddress() {
		return (this.forwardedFor != null) ? this.forwardedFor : this.channel.connection().remoteAddress();
	}

	@Override
	public InetSocketAddress getLocalAddress() {
		return this.channel.connection().localAddress();
	}

	@Override
	public Flux<DataBuffer> getBody() {
		return this.body;
	}

	@Override
	protected String initId() {
		return this.channel.channel().id().asShortText() + "-" + this.sequence;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T> T getNativeRequest() {
		return (T) this.request;
	}

	/**
	 * Let the figures read the route of this request from the attributes of its WebFlux exchange, where the
	 * handler mapping puts the best matching pattern. Called by a web filter before the handler mapping runs.
	 * @param attributes the exchange's attributes
	 */
	public void exchangeAttributes(Map<String, Object> attributes) {
		this.exchangeAttributes = attributes;
	}

	/**
	 * WebFlux's best matching pattern for this request, once its handler mapping ran.
	 * @return the pattern (a {@code PathPattern} or a string), or {@code null} when no handler mapping set one
	 */
	public Object route() {
		Map<String, Object> attributes = this.exchangeAttributes;
		if (attributes == null) {
			return null;
		}
		Object pattern = attributes.get(BEST_MATCHING_PATTERN_ATTRIBUTE);
		return (pattern != null) ? pattern : attributes.get(MATCHING_PATTERN_ATTRIBUTE);
	}

	/**
	 * How the connection this request came on leaves HTTP after a {@code 101} (used by the WebSocket upgrade).
	 * @return the upgrade, or {@code null} when its protocol can not switch
	 */
	public ProtocolUpgrade protocolUpgrade() {
		return this.channel.upgrade();
	}

	/**
	 * The channel this request came on.
	 * @return the channel
	 */
	public Channel channel() {
		return this.channel.channel();
	}

}
