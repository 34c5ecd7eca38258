package io.khamsin.sample;

import reactor.core.publisher.Mono;

import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.WebSocketSession;

/**
 * {@code /ws/echo}: sends every text and binary message back as it came. The payload is copied because the
 * inbound buffer is released once the message has been handed on.
 */
final class EchoWebSocketHandler implements WebSocketHandler {

	@Override
	public Mono<Void> handle(WebSocketSession session) {
		return session.send(session.receive().map((message) -> echo(session, message)));
	}

	private static WebSocketMessage echo(WebSocketSession session, WebSocketMessage message) {
		if (message.getType() == WebSocketMessage.Type.TEXT) {
			return session.textMessage(message.getPayloadAsText());
		}
		byte[] payload = new byte[message.getPayload().readableByteCount()];
		message.getPayload().read(payload);
		return session.binaryMessage((factory) -> factory.wrap(payload));
	}

}
