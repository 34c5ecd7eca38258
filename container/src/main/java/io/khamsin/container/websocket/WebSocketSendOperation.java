package io.khamsin.container.websocket;

import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.Function;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.web.reactive.socket.WebSocketMessage;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * Sends a publisher of messages as frames: one message requested at a time while the channel is writable,
 * written on the event loop and flushed once per batch; completes when the publisher completes, and fails with
 * a {@link ClosedChannelException} (cancelling the publisher) when the connection closes first, so that a handler
 * that sends forever ends with its session.
 */
final class WebSocketSendOperation extends Mono<Void>
		implements CoreSubscriber<WebSocketMessage>, Subscription, ChannelFutureListener {

	private static final AtomicIntegerFieldUpdater<WebSocketSendOperation> TERMINATED = AtomicIntegerFieldUpdater
		.newUpdater(WebSocketSendOperation.class, "terminated");

	private final Channel channel;

	private final Publisher<WebSocketMessage> messages;

	private final Function<WebSocketMessage, WebSocketFrame> toFrame;

	private final Runnable flush = this::flush;

	private CoreSubscriber<? super Void> actual;

	private Subscription upstream;

	private boolean flushScheduled;

	private volatile boolean cancelled;

	private volatile int terminated;

	WebSocketSendOperation(Channel channel, Publisher<WebSocketMessage> messages,
			Function<WebSocketMessage, WebSocketFrame> toFrame) {
		this.channel = channel;
		this.messages = messages;
		this.toFrame = toFrame;
	}

	@Override
	public void subscribe(CoreSubscriber<? super Void> actual) {
		this.actual = actual;
		this.messages.subscribe(this);
	}

	@Override
	public void onSubscribe(Subscription subscription) {
		if (Operators.validate(this.upstream, subscription)) {
			this.upstream = subscription;
			this.actual.onSubscribe(this);
			this.channel.closeFuture().addListener(this);
			subscription.request(1);
		}
	}

	/**
	 * The connection closed: nothing more can be sent.
	 */
	@Override
	public void operationComplete(ChannelFuture closed) {
		if (terminate()) {
			this.cancelled = true;
			this.upstream.cancel();
			this.actual.onError(new ClosedChannelException());
		}
	}

	private boolean terminate() {
		return TERMINATED.compareAndSet(this, 0, 1);
	}

	@Override
	public void onNext(WebSocketMessage message) {
		if (this.cancelled || !this.channel.isActive()) {
			DataBufferUtils.release(message.getPayload());
			return;
		}
		this.channel.write(this.toFrame.apply(message)).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
		this.channel.eventLoop().execute(() -> {
			scheduleFlush();
			if (this.channel.isWritable()) {
				this.upstream.request(1);
			}
			else {
				this.channel.flush();
				awaitWritability();
			}
		});
	}

	private void awaitWritability() {
		this.channel.eventLoop().execute(() -> {
			if (this.cancelled) {
				return;
			}
			if (this.channel.isWritable() || !this.channel.isActive()) {
				this.upstream.request(1);
			}
			else {
				this.channel.eventLoop().schedule(this::awaitWritability, 1, java.util.concurrent.TimeUnit.MILLISECONDS);
			}
		});
	}

	private void scheduleFlush() {
		if (!this.flushScheduled) {
			this.flushScheduled = true;
			this.channel.eventLoop().execute(this.flush);
		}
	}

	private void flush() {
		this.flushScheduled = false;
		this.channel.flush();
	}

	@Override
	public void onError(Throwable error) {
		if (!terminate()) {
			return;
		}
		this.channel.eventLoop().execute(this::flush);
		this.actual.onError(error);
	}

	@Override
	public void onComplete() {
		if (!terminate()) {
			return;
		}
		if (!this.channel.isActive()) {
			// The peer closed first: what was sent before the close is all the peer could take.
			this.actual.onComplete();
			return;
		}
		this.channel.eventLoop().execute(() -> {
			flush();
			this.actual.onComplete();
		});
	}

	@Override
	public void request(long n) {
	}

	@Override
	public void cancel() {
		this.cancelled = true;
		this.terminated = 1;
		Subscription upstream = this.upstream;
		if (upstream != null) {
			upstream.cancel();
		}
	}

}
