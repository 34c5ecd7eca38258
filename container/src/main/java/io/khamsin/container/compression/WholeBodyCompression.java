package io.khamsin.container.compression;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;

/**
 * Compresses a single-buffer body (a {@code Mono} body, a cached body) and hands the result back on the response's
 * event loop: in place when the body is smaller than the offload threshold, on the offload executor when it is
 * larger, so that a large body does not keep the reactor from its other connections for milliseconds (see
 * {@link CompressionConfig#DEFAULT_OFFLOAD_THRESHOLD} for the figures). The encoder is used by one thread at a
 * time: the hand-over to the executor and back orders its calls.
 */
public final class WholeBodyCompression {

	private final int offloadThreshold;

	private final Executor offload;

	/**
	 * @param offloadThreshold the body size from which compression leaves the event loop
	 * @param offload where large bodies are compressed: CPU-bound work, such as Reactor's
	 * {@code Schedulers.parallel()}
	 */
	public WholeBodyCompression(int offloadThreshold, Executor offload) {
		if (offloadThreshold < 1) {
			throw new IllegalArgumentException("offloadThreshold must be positive, was " + offloadThreshold);
		}
		if (offload == null) {
			throw new IllegalArgumentException("offload must not be null");
		}
		this.offloadThreshold = offloadThreshold;
		this.offload = offload;
	}

	/**
	 * Compress a whole body. {@code done} is called once, on {@code eventLoop}, with the coded body (which it owns:
	 * it writes or releases it, also when the response was aborted meanwhile) or with the failure; the encoder is
	 * closed and the body released either way. Called on {@code eventLoop}.
	 * @param encoder the encoder of the response
	 * @param body the identity body, taken by this call
	 * @param eventLoop the response's event loop
	 * @param done receives the coded body, or {@code null} and the failure
	 * @return whether the body was compressed in place ({@code done} has already been called)
	 */
	public boolean compress(ContentEncoder encoder, ByteBuf body, EventExecutor eventLoop,
			BiConsumer<ByteBuf, Throwable> done) {
		if (body.readableBytes() < this.offloadThreshold) {
			run(encoder, body, done);
			return true;
		}
		try {
			this.offload.execute(() -> {
				ByteBuf coded;
				try {
					coded = encoder.encodeWhole(body);
				}
				catch (RuntimeException | Error ex) {
					encoder.close();
					deliver(eventLoop, null, ex, done);
					return;
				}
				deliver(eventLoop, coded, null, done);
			});
			return false;
		}
		catch (RejectedExecutionException ex) {
			run(encoder, body, done);
			return true;
		}
	}

	private static void run(ContentEncoder encoder, ByteBuf body, BiConsumer<ByteBuf, Throwable> done) {
		ByteBuf coded;
		try {
			coded = encoder.encodeWhole(body);
		}
		catch (RuntimeException | Error ex) {
			encoder.close();
			done.accept(null, ex);
			return;
		}
		done.accept(coded, null);
	}

	private static void deliver(EventExecutor eventLoop, ByteBuf coded, Throwable failure,
			BiConsumer<ByteBuf, Throwable> done) {
		try {
			eventLoop.execute(() -> done.accept(coded, failure));
		}
		catch (RejectedExecutionException ex) {
			// The event loop is gone, and the connection with it.
			if (coded != null) {
				coded.release();
			}
		}
	}

}
