package io.khamsin.container.bridge;

import java.util.ArrayDeque;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * The body of one request as a {@code Flux<DataBuffer>} for a single subscriber, fed by the protocol with the
 * body parts it decodes. Demand drives the socket: parts that nobody asked for pause reading, and a request for
 * more resumes it, so a slow reader holds at most about one read's worth of bytes in memory. Each part is handed
 * to the subscriber once, which then owns (and releases) it; parts never handed out are released here.
 * <p>
 * All state is confined to the channel's event loop; signals from other threads hop onto it.
 */
final class RequestBody extends Flux<DataBuffer> implements Subscription {

	private final ExchangeChannel channel;

	private final EventLoop eventLoop;

	private final NettyDataBufferFactory bufferFactory;

	private ArrayDeque<ByteBuf> parts;

	private CoreSubscriber<? super DataBuffer> subscriber;

	private long demand;

	private boolean requested;

	private boolean complete;

	private Throwable error;

	private boolean cancelled;

	private boolean terminated;

	private boolean draining;

	private boolean paused;

	RequestBody(ExchangeChannel channel, NettyDataBufferFactory bufferFactory) {
		this.channel = channel;
		this.eventLoop = channel.channel().eventLoop();
		this.bufferFactory = bufferFactory;
	}

	@Override
	public void subscribe(CoreSubscriber<? super DataBuffer> actual) {
		if (!this.eventLoop.inEventLoop()) {
			this.eventLoop.execute(() -> subscribe(actual));
			return;
		}
		if (this.subscriber != null) {
			Operators.error(actual, new IllegalStateException("The request body can only be consumed once"));
			return;
		}
		this.subscriber = actual;
		actual.onSubscribe(this);
		drain();
	}

	@Override
	public void request(long n) {
		if (!this.eventLoop.inEventLoop()) {
			this.eventLoop.execute(() -> request(n));
			return;
		}
		if (n <= 0 || this.cancelled) {
			return;
		}
		this.demand = Operators.addCap(this.demand, n);
		if (!this.requested) {
			this.requested = true;
			this.channel.bodyRequested();
		}
		drain();
	}

	@Override
	public void cancel() {
		if (!this.eventLoop.inEventLoop()) {
			this.eventLoop.execute(this::cancel);
			return;
		}
		discard();
	}

	/**
	 * A body part arrived; this body now owns it.
	 * @param part the bytes
	 */
	void onPart(ByteBuf part) {
		if (this.cancelled || this.terminated) {
			part.release();
			return;
		}
		if (this.parts == null) {
			this.parts = new ArrayDeque<>(4);
		}
		this.parts.add(part);
		drain();
	}

	/**
	 * The last part arrived.
	 */
	void onComplete() {
		this.complete = true;
		drain();
	}

	/**
	 * The body can not be read to its end.
	 * @param cause why
	 */
	void onError(Throwable cause) {
		if (this.complete || this.error != null) {
			return;
		}
		this.error = cause;
		releaseParts();
		drain();
	}

	/**
	 * Nobody will read the rest: release what is buffered and drop what comes.
	 */
	void discard() {
		this.cancelled = true;
		releaseParts();
		updatePause();
	}

	/** @return whether every part of the body has arrived */
	boolean isComplete() {
		return this.complete;
	}

	/** @return whether reading is paused for lack of demand */
	boolean isPaused() {
		return this.paused;
	}

	private void drain() {
		if (this.draining) {
			return;
		}
		this.draining = true;
		try {
			CoreSubscriber<? super DataBuffer> subscriber = this.subscriber;
			if (subscriber != null && !this.cancelled) {
				while (this.demand > 0 && this.parts != null && !this.parts.isEmpty() && !this.cancelled) {
					this.demand--;
					subscriber.onNext(this.bufferFactory.wrap(this.parts.poll()));
				}
				boolean empty = this.parts == null || this.parts.isEmpty();
				if (empty && !this.terminated && !this.cancelled) {
					if (this.error != null) {
						this.terminated = true;
						subscriber.onError(this.error);
					}
					else if (this.complete) {
						this.terminated = true;
						subscriber.onComplete();
					}
				}
			}
			updatePause();
		}
		finally {
			this.draining = false;
		}
	}

	private void updatePause() {
		boolean paused = !this.cancelled && this.parts != null && !this.parts.isEmpty();
		if (paused != this.paused) {
			this.paused = paused;
			this.channel.pauseBodyReading(paused);
		}
	}

	private void releaseParts() {
		if (this.parts != null) {
			ByteBuf part;
			while ((part = this.parts.poll()) != null) {
				part.release();
			}
		}
	}

}
