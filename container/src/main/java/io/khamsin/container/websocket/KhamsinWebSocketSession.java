package io.khamsin.container.websocket;

import java.nio.channels.ClosedChannelException;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.web.reactive.socket.CloseStatus;
import org.springframework.web.reactive.socket.HandshakeInfo;
import org.springframework.web.reactive.socket.WebSocketMessage;
import org.springframework.web.reactive.socket.adapter.AbstractWebSocketSession;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.khamsin.container.bridge.InboundPublisher;

/**
 * A WebFlux {@code WebSocketSession} on a Netty channel whose pipeline carries WebSocket frames. Received
 * messages are demand-driven (reading pauses while the handler has not asked for more); sent messages are
 * written while the channel is writable and flushed once per batch. Pings are answered with pongs. Received
 * messages the handler did not take are released when the session ends, and at once when the connection closes
 * if the handler never asked for them.
 */
final class KhamsinWebSocketSession extends AbstractWebSocketSession<Channel> implements InboundPublisher.ReadControl {

	private final Channel channel;

	private final NettyDataBufferFactory bufferFactory;

	private final InboundPublisher<WebSocketMessage> inbound;

	private final Sinks.One<CloseStatus> closeStatus = Sinks.one();

	private boolean closeSent;

	KhamsinWebSocketSession(Channel channel, HandshakeInfo info, NettyDataBufferFactory bufferFactory) {
		super(channel, channel.id().asShortText(), info, bufferFactory);
		this.channel = channel;
		this.bufferFactory = bufferFactory;
		this.inbound = new InboundPublisher<>(this, channel.eventLoop(),
				(message) -> DataBufferUtils.release(message.getPayload()), true);
		channel.closeFuture().addListener((future) -> {
			this.inbound.onComplete();
			if (!this.inbound.isSubscribed()) {
				// A handler that only sends never reads what the peer sent: nobody can any more.
				this.inbound.discard();
			}
			this.closeStatus.tryEmitValue(CloseStatus.NO_STATUS_CODE);
		});
	}

	ChannelInboundHandlerAdapter inboundHandler() {
		return new FrameHandler();
	}

	@Override
	public Flux<WebSocketMessage> receive() {
		return this.inbound;
	}

	@Override
	public Mono<Void> send(Publisher<WebSocketMessage> messages) {
		return new WebSocketSendOperation(this.channel, messages, this::toFrame);
	}

	@Override
	public boolean isOpen() {
		return this.channel.isActive() && !this.closeSent;
	}

	@Override
	public Mono<Void> close(CloseStatus status) {
		Mono<Void> close = Mono.create((sink) -> this.channel.eventLoop().execute(() -> {
			sendClose(status);
			sink.success();
		}));
		return close;
	}

	@Override
	public Mono<CloseStatus> closeStatus() {
		return this.closeStatus.asMono();
	}

	/**
	 * The session is over (its handler ended and the connection closed, or the upgrade was cancelled): release the
	 * received messages that the handler did not take.
	 */
	void release() {
		this.inbound.discard();
	}

	/** @return completes when the connection is closed */
	Mono<Void> closed() {
		return this.closeStatus.asMono().then();
	}

	private void sendClose(CloseStatus status) {
		if (this.closeSent || !this.channel.isActive()) {
			return;
		}
		this.closeSent = true;
		this.closeStatus.tryEmitValue(status);
		CloseWebSocketFrame frame = (status.getReason() != null)
				? new CloseWebSocketFrame(status.getCode(), status.getReason())
				: new CloseWebSocketFrame(status.getCode(), null);
		this.channel.writeAndFlush(frame).addListener(ChannelFutureListener.CLOSE);
	}

	private WebSocketFrame toFrame(WebSocketMessage message) {
		ByteBuf payload = NettyDataBufferFactory.toByteBuf(message.getPayload());
		return switch (message.getType()) {
			case TEXT -> new TextWebSocketFrame(payload);
			case BINARY -> new BinaryWebSocketFrame(payload);
			case PING -> new PingWebSocketFrame(payload);
			case PONG -> new PongWebSocketFrame(payload);
		};
	}

	@Override
	public void pauseReading(boolean paused) {
		this.channel.config().setAutoRead(!paused);
	}

	@Override
	public void firstRequest() {
	}

	private WebSocketMessage message(WebSocketMessage.Type type, WebSocketFrame frame) {
		DataBuffer payload = this.bufferFactory.wrap(frame.content());
		return new WebSocketMessage(type, payload, frame);
	}

	/** Turns received frames into messages, answers pings, and ends the session on a close frame. */
	private final class FrameHandler extends ChannelInboundHandlerAdapter {

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			if (!(msg instanceof WebSocketFrame frame)) {
				ctx.fireChannelRead(msg);
				return;
			}
			if (frame instanceof TextWebSocketFrame) {
				KhamsinWebSocketSession.this.inbound.onPart(message(WebSocketMessage.Type.TEXT, frame));
			}
			else if (frame instanceof BinaryWebSocketFrame) {
				KhamsinWebSocketSession.this.inbound.onPart(message(WebSocketMessage.Type.BINARY, frame));
			}
			else if (frame instanceof PingWebSocketFrame) {
				ctx.writeAndFlush(new PongWebSocketFrame(frame.content()));
			}
			else if (frame instanceof PongWebSocketFrame) {
				KhamsinWebSocketSession.this.inbound.onPart(message(WebSocketMessage.Type.PONG, frame));
			}
			else if (frame instanceof CloseWebSocketFrame close) {
				int code = close.statusCode();
				CloseStatus status = (code >= 0) ? new CloseStatus(code, close.reasonText()) : CloseStatus.NO_STATUS_CODE;
				close.release();
				KhamsinWebSocketSession.this.inbound.onComplete();
				if (!KhamsinWebSocketSession.this.closeSent) {
					// RFC 6455, section 5.5.1: answer a close with a close, then end the connection.
					KhamsinWebSocketSession.this.closeStatus.tryEmitValue(status);
					KhamsinWebSocketSession.this.closeSent = true;
					CloseWebSocketFrame echo = (code >= 0) ? new CloseWebSocketFrame(code, null) : new CloseWebSocketFrame();
					ctx.writeAndFlush(echo).addListener(ChannelFutureListener.CLOSE);
				}
				else {
					ctx.close();
				}
			}
			else {
				frame.release();
			}
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			KhamsinWebSocketSession.this.inbound.onError(new ClosedChannelException());
			ctx.fireChannelInactive();
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			if (cause instanceof CorruptedWebSocketFrameException corrupted && !KhamsinWebSocketSession.this.closeSent) {
				// Answer with the close code (e.g. 1009 for a message too big), then give the peer a moment to
				// read it before the connection closes: the rest of its message is still unread, and closing at
				// once would reset the connection before the close frame is seen.
				KhamsinWebSocketSession.this.closeSent = true;
				CloseStatus status = new CloseStatus(corrupted.closeStatus().code(), corrupted.closeStatus().reasonText());
				KhamsinWebSocketSession.this.closeStatus.tryEmitValue(status);
				ctx.writeAndFlush(new CloseWebSocketFrame(corrupted.closeStatus()));
				ctx.executor().schedule(() -> ctx.close(), 1, java.util.concurrent.TimeUnit.SECONDS);
				KhamsinWebSocketSession.this.inbound.onError(cause);
				return;
			}
			KhamsinWebSocketSession.this.inbound.onError(cause);
			ctx.close();
		}

	}

}
