package io.khamsin.container.bridge;

import java.util.ArrayDeque;
import java.util.function.Consumer;

import io.netty.channel.EventLoop;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;

/**
 * Inbound items of a connection (request body parts, WebSocket messages) as a {@code Flux} for a single
 * subscriber. Demand drives the socket: items that nobody asked for pause reading, and a request for more
 * resumes it, so a slow reader holds at most about one read's worth of bytes in memory. Each item is handed to
 * the subscriber once, which then owns (and releases) it; items never handed out are released here.
 * <p>
 * All state is confined to the channel's event loop; signals from other threads hop onto it.
 *
 * @param <T> the type of the items, reference-counted or not
 */
public final class InboundPublisher<T> extends Flux<T> implements Subscription {

	/**
	 * What the publisher tells the protocol.
	 */
	public interface ReadControl {

		/**
		 * Items are buffered that nobody asked for ({@code paused}), or a subscriber wants more: stop or resume
		 * reading from the socket.
		 * @param paused whether reading should pause
		 */
		void pauseReading(boolean paused);

		/**
		 * The subscriber asked for items for the first time.
		 */
		void firstRequest();

	}

	private final ReadControl control;

	private final EventLoop eventLoop;

	private final Consumer<? super T> releaser;

	private final boolean releaseAfterDelivery;

	private ArrayDeque<T> parts;

	private CoreSubscriber<? super T> subscriber;

	private long demand;

	private boolean requested;

	private boolean complete;

	private Throwable error;

	private boolean cancelled;

	private boolean terminated;

	private boolean draining;

	private boolean paused;

	/**
	 * Create a publisher.
	 * @param control the protocol's read control
	 * @param eventLoop the event loop of the channel
	 */
	public InboundPublisher(ReadControl control, EventLoop eventLoop, Consumer<? super T> releaser) {
		this(control, eventLoop, releaser, false);
	}

	/**
	 * Create a publisher.
	 * @param control the protocol's read control
	 * @param eventLoop the event loop of the channel
	 * @param releaser releases an item that is dropped or delivered
	 * @param releaseAfterDelivery whether an item is released once the subscriber's {@code onNext} returns (the
	 * subscriber retains what it keeps), rather than handed over
	 */
	public InboundPublisher(ReadControl control, EventLoop eventLoop, Consumer<? super T> releaser,
			boolean releaseAfterDelivery) {
		this.control = control;
		this.releaser = releaser;
		this.eventLoop = eventLoop;
		this.releaseAfterDelivery = releaseAfterDelivery;
	}

	@Override
	public void subscribe(CoreSubscriber<? super T> actual) {
		if (!this.eventLoop.inEventLoop()) {
			this.eventLoop.execute(() -> subscribe(actual));
			return;
		}
		if (this.subscriber != null) {
			Operators.error(actual, new IllegalStateException("Only one subscriber is allowed"));
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
			this.control.firstRequest();
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
	 * An item arrived; this publisher now owns it.
	 * @param part the item
	 */
	public void onPart(T part) {
		if (this.cancelled || this.terminated) {
			this.releaser.accept(part);
			return;
		}
		if (this.parts == null) {
			this.parts = new ArrayDeque<>(4);
		}
		this.parts.add(part);
		drain();
	}

	/**
	 * The last item arrived.
	 */
	public void onComplete() {
		this.complete = true;
		drain();
	}

	/**
	 * The items can not be read to their end.
	 * @param cause why
	 */
	public void onError(Throwable cause) {
		if (this.complete || this.error != null) {
			return;
		}
		this.error = cause;
		releaseParts();
		drain();
	}

	/**
	 * Nobody will read the rest: release what is buffered and drop what comes. Callable from any thread.
	 */
	public void discard() {
		if (!this.eventLoop.inEventLoop()) {
			this.eventLoop.execute(this::discard);
			return;
		}
		this.cancelled = true;
		releaseParts();
		updatePause();
	}

	/** @return whether a subscriber has subscribed */
	public boolean isSubscribed() {
		return this.subscriber != null;
	}

	/** @return whether every item has arrived */
	public boolean isComplete() {
		return this.complete;
	}

	/** @return whether reading is paused for lack of demand */
	public boolean isPaused() {
		return this.paused;
	}

	private void drain() {
		if (this.draining) {
			return;
		}
		this.draining = true;
		try {
			CoreSubscriber<? super T> subscriber = this.subscriber;
			if (subscriber != null && !this.cancelled) {
				while (this.demand > 0 && this.parts != null && !this.parts.isEmpty() && !this.cancelled) {
					this.demand--;
					T item = this.parts.poll();
					if (this.releaseAfterDelivery) {
						try {
							subscriber.onNext(item);
						}
						finally {
							this.releaser.accept(item);
						}
					}
					else {
						subscriber.onNext(item);
					}
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
			this.control.pauseReading(paused);
		}
	}

	private void releaseParts() {
		if (this.parts != null) {
			T part;
			while ((part = this.parts.poll()) != null) {
				this.releaser.accept(part);
			}
		}
	}

}
