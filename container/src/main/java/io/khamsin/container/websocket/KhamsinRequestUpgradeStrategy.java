package io.khamsin.container.websocket;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameDecoder;
import io.netty.handler.codec.http.websocketx.WebSocket13FrameEncoder;
import io.netty.handler.codec.http.websocketx.WebSocketDecoderConfig;
import io.netty.handler.codec.http.websocketx.WebSocketFrameAggregator;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.server.RequestUpgradeStrategy;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import io.khamsin.container.bridge.KhamsinServerHttpRequest;
import io.khamsin.container.bridge.KhamsinServerHttpResponse;
import io.khamsin.container.bridge.ProtocolUpgrade;

/**
 * WebFlux's {@link RequestUpgradeStrategy} for khamsin: answers the handshake with {@code 101 Switching
 * Protocols} (RFC 6455, section 4.2.2), switches the connection to WebSocket frame codecs through the
 * {@link ProtocolUpgrade} of the protocol that carried the handshake, and runs the {@link WebSocketHandler} on a
 * {@link KhamsinWebSocketSession} until it completes or the peer closes.
 */
public final class KhamsinRequestUpgradeStrategy implements RequestUpgradeStrategy {

	/** Default largest message accepted, in bytes (larger: close with 1009). */
	public static final int DEFAULT_MAX_FRAME_PAYLOAD_LENGTH = 64 * 1024;

	private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

	private final int maxFramePayloadLength;

	private volatile RequestUpgradeStrategy fallback;

	/**
	 * A strategy accepting messages up to {@link #DEFAULT_MAX_FRAME_PAYLOAD_LENGTH}.
	 */
	public KhamsinRequestUpgradeStrategy() {
		this(DEFAULT_MAX_FRAME_PAYLOAD_LENGTH);
	}

	/**
	 * A strategy accepting messages up to the given size.
	 * @param maxFramePayloadLength the largest message, in bytes
	 */
	public KhamsinRequestUpgradeStrategy(int maxFramePayloadLength) {
		if (maxFramePayloadLength <= 0) {
			throw new IllegalArgumentException("maxFramePayloadLength must be positive, was " + maxFramePayloadLength);
		}
		this.maxFramePayloadLength = maxFramePayloadLength;
	}

	/** @return the largest message accepted, in bytes */
	public int getMaxFramePayloadLength() {
		return this.maxFramePayloadLength;
	}

	@Override
	public Mono<Void> upgrade(ServerWebExchange exchange, WebSocketHandler handler, String subProtocol,
			Supplier<HandshakeInfo> handshakeInfoFactory) {
		ServerHttpRequest request = exchange.getRequest();
		ServerHttpResponse response = exchange.getResponse();
		Object nativeRequest = unwrap(request);
		Object nativeResponse = unwrap(response);
		if (!(nativeRequest instanceof KhamsinServerHttpRequest khamsinRequest)
				|| !(nativeResponse instanceof KhamsinServerHttpResponse khamsinResponse)) {
			// Served by another container (khamsin.enabled=false, or a user-defined server): use its strategy.
			return fallback().upgrade(exchange, handler, subProtocol, handshakeInfoFactory);
		}
		String key = request.getHeaders().getFirst("Sec-WebSocket-Key");
		if (key == null) {
			return Mono.error(new IllegalStateException("Missing Sec-WebSocket-Key header"));
		}
		ProtocolUpgrade upgrade = khamsinRequest.protocolUpgrade();
		if (upgrade == null) {
			return Mono.error(new IllegalStateException("A WebSocket handshake needs a connection that can leave HTTP "
					+ "(HTTP/1.1); this request came on one that cannot"));
		}
		HandshakeInfo info = handshakeInfoFactory.get();
		Channel channel = khamsinRequest.channel();
		HttpHeaders headers = response.getHeaders();
		response.setStatusCode(HttpStatus.SWITCHING_PROTOCOLS);
		headers.set(HttpHeaders.UPGRADE, "websocket");
		headers.set(HttpHeaders.CONNECTION, "Upgrade");
		headers.set("Sec-WebSocket-Accept", accept(key));
		if (subProtocol != null) {
			headers.set("Sec-WebSocket-Protocol", subProtocol);
		}
		NettyDataBufferFactory bufferFactory = (NettyDataBufferFactory) response.bufferFactory();
		return khamsinResponse.writeHeadOnly().then(Mono.defer(() -> {
			KhamsinWebSocketSession session = new KhamsinWebSocketSession(channel, info, bufferFactory);
			upgrade.switchTo(webSocketHandlers(session));
			// Once the protocol switched, a handler error can only end the session (1011), not the HTTP exchange.
			return handler.handle(session)
				.then(Mono.defer(session::close))
				.onErrorResume((error) -> session.close(CloseStatus.SERVER_ERROR))
				.then(session.closed())
				.doFinally((signal) -> session.release());
		}));
	}

	private Map<String, ChannelHandler> webSocketHandlers(KhamsinWebSocketSession session) {
		WebSocketDecoderConfig config = WebSocketDecoderConfig.newBuilder()
			.maxFramePayloadLength(this.maxFramePayloadLength)
			.allowExtensions(false)
			.expectMaskedFrames(true)
			.closeOnProtocolViolation(false)
			.build();
		Map<String, ChannelHandler> handlers = new LinkedHashMap<>();
		handlers.put("ws-decoder", new WebSocket13FrameDecoder(config));
		handlers.put("ws-encoder", new WebSocket13FrameEncoder(false));
		handlers.put("ws-aggregator", new WebSocketFrameAggregator(this.maxFramePayloadLength));
		handlers.put("ws-session", session.inboundHandler());
		return handlers;
	}

	private RequestUpgradeStrategy fallback() {
		RequestUpgradeStrategy fallback = this.fallback;
		if (fallback == null) {
			fallback = new HandshakeWebSocketService().getUpgradeStrategy();
			this.fallback = fallback;
		}
		return fallback;
	}

	private static ServerHttpRequest unwrap(ServerHttpRequest request) {
		while (request instanceof ServerHttpRequestDecorator decorator) {
			request = decorator.getDelegate();
		}
		return request;
	}

	private static ServerHttpResponse unwrap(ServerHttpResponse response) {
		while (response instanceof ServerHttpResponseDecorator decorator) {
			response = decorator.getDelegate();
		}
		return response;
	}

	static String accept(String key) {
		try {
			byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key.trim() + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII));
			return Base64.getEncoder().encodeToString(sha1);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-1 is required by RFC 6455", ex);
		}
	}

}
