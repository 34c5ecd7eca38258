package io.khamsin.container.bridge;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

/**
 * One write of a body publisher to a {@link KhamsinServerHttpResponse}, as the {@code Mono<Void>} that Spring
 * waits on. It moves every signal onto the channel's event loop (keeping their order), asks for one part at a
 * time while the channel is writable, and completes once the last part was handed to the channel.
 */
final class ResponseWrite extends Mono<Void> implements CoreSubscriber<DataBuffer>, Subscription {

	enum Mode {

		/** A {@code Mono} body: written with the head in one message; complete once it is handed to the channel. */
		SINGLE,

		/** A streamed body: parts written as they come, flushed per batch. */
		STREAM,

		/** A streamed body flushed when it completes ({@code writeAndFlushWith}). */
		STREAM_FLUSH

	}

	private static final AtomicIntegerFieldUpdater<ResponseWrite> QUEUED = AtomicIntegerFieldUpdater
		.newUpdater(ResponseWrite.class, "queued");

	private final KhamsinServerHttpResponse response;

	private final Publisher<? extends DataBuffer> body;

	private final Mode mode;

	private CoreSubscriber<? super Void> actual;

	private Subscription upstream;

	private DataBuffer single;

	private boolean awaitingWritability;

	private boolean done;

	private volatile boolean cancelled;

	private volatile int queued;

	ResponseWrite(KhamsinServerHttpResponse response, Publisher<? extends DataBuffer> body, Mode mode) {
		this.response = response;
		this.body = body;
		this.mode = mode;
	}

	@Override
	public void subscribe(CoreSubscriber<? super Void> actual) {
		this.actual = actual;
		this.body.subscribe(this);
	}

	@Override
	public void onSubscribe(Subscription subscription) {
		if (Operators.validate(this.upstream, subscription)) {
			this.upstream = subscription;
			this.actual.onSubscribe(this);
			subscription.request((this.mode == Mode.SINGLE) ? Long.MAX_VALUE : 1);
		}
	}

	@Override
	public void onNext(DataBuffer buffer) {
		if (!runOnEventLoop(() -> next(buffer))) {
			KhamsinServerHttpResponse.release(buffer);
		}
	}

	@Override
	public void onError(Throwable error) {
		runOnEventLoop(() -> failed(error));
	}

	@Override
	public void onComplete() {
		if (this.response.eventLoop().inEventLoop()) {
			if (this.queued == 0) {
				complete();
			}
			else {
				// Parts signalled from another thread are still queued: the end comes after them.
				runOnEventLoop(this::complete);
			}
			return;
		}
		if (this.mode == Mode.SINGLE) {
			// A single buffer completes once it is handed to the channel, which a compressed one may be later.
			if (!runOnEventLoop(this::complete)) {
				// The event loop is gone, and the connection with it.
				KhamsinServerHttpResponse.release(this.single);
				this.single = null;
				this.actual.onComplete();
			}
			return;
		}
		// Signalled from another thread: the writes are queued on the event loop in order, and so is anything the
		// handler does after this completes (the exchange's end hops onto the loop too). Completing now, rather
		// than after the hop, keeps a producer that does not wait for demand (Flux.interval) from overflowing.
		runOnEventLoop(this::finishWrite);
		this.actual.onComplete();
	}

	@Override
	public void request(long n) {
		// Completion is the only signal of a Mono<Void>.
	}

	@Override
	public void cancel() {
		this.cancelled = true;
		Subscription upstream = this.upstream;
		if (upstream != null) {
			upstream.cancel();
		}
		runOnEventLoop(() -> {
			this.done = true;
			KhamsinServerHttpResponse.release(this.single);
			this.single = null;
			this.response.writeEnded(this);
		});
	}

	private boolean runOnEventLoop(Runnable signal) {
		if (this.response.eventLoop().inEventLoop() && this.queued == 0) {
			signal.run();
			return true;
		}
		QUEUED.incrementAndGet(this);
		try {
			this.response.eventLoop().execute(() -> {
				QUEUED.decrementAndGet(this);
				signal.run();
			});
			return true;
		}
		catch (RejectedExecutionException ex) {
			QUEUED.decrementAndGet(this);
			return false;
		}
	}

	private void next(DataBuffer buffer) {
		if (this.done || this.response.isAborted()) {
			KhamsinServerHttpResponse.release(buffer);
			return;
		}
		if (this.mode == Mode.SINGLE) {
			KhamsinServerHttpResponse.release(this.single);
			this.single = buffer;
			return;
		}
		this.response.writeStarted(this);
		this.response.writePart(buffer, false);
		if (this.response.isWritable()) {
			this.upstream.request(1);
		}
		else {
			this.awaitingWritability = true;
		}
	}

	void resume() {
		if (this.awaitingWritability && !this.done) {
			this.awaitingWritability = false;
			this.upstream.request(1);
		}
	}

	private void complete() {
		if (this.mode == Mode.SINGLE) {
			if (this.done) {
				return;
			}
			this.done = true;
			this.response.writeEnded(this);
			DataBuffer single = this.single;
			this.single = null;
			this.response.writeFull(single, this::written);
			return;
		}
		if (finishWrite()) {
			this.actual.onComplete();
		}
	}

	/** The single buffer was handed to the channel, or could not be. */
	private void written(Throwable failure) {
		if (this.cancelled) {
			return;
		}
		if (failure != null) {
			this.actual.onError(failure);
		}
		else {
			this.actual.onComplete();
		}
	}

	private boolean finishWrite() {
		if (this.done) {
			return false;
		}
		this.done = true;
		this.response.writeEnded(this);
		if (this.mode == Mode.STREAM_FLUSH) {
			this.response.flushNow();
		}
		return true;
	}

	private void failed(Throwable error) {
		if (this.done) {
			return;
		}
		this.done = true;
		this.response.writeEnded(this);
		KhamsinServerHttpResponse.release(this.single);
		this.single = null;
		this.actual.onError(error);
	}

}
