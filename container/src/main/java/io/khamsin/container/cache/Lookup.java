package io.khamsin.container.cache;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;

/**
 * What the page cache answers a request's lookup with. The exchange stage writes a {@link Hit} or a
 * {@link NotModified} itself; hands a {@link Miss} to the application with its {@link Ticket} on the response's
 * write path; hands a {@link Bypass} to the application as it is; and waits for a {@link Deferred}, which ends as
 * one of the other four, on the request's own event loop.
 */
public sealed interface Lookup permits Lookup.Hit, Lookup.NotModified, Lookup.Miss, Lookup.Bypass, Lookup.Deferred {

	/**
	 * Answer from an entry. The hit owns one reference to its body: write it ({@code ExchangeChannel.writeHit}) or
	 * {@link #release()} it.
	 *
	 * @param entry the entry
	 * @param representation the coding chosen for the client
	 * @param body a duplicate of the representation's body that the hit owns, {@code null} for {@code HEAD}
	 * @param ageSeconds the {@code Age} to send (RFC 9111, section 5.1)
	 * @param stale whether the entry is past its freshness
	 * @param tier the tier the entry came from
	 * @param revalidation when not {@code null}, the ticket of a background render that refreshes a stale entry:
	 * after writing the hit, render the request again with it and write the response nowhere
	 */
	record Hit(CachedResponse entry, Representation representation, ByteBuf body, long ageSeconds, boolean stale,
			CacheTier tier, Ticket revalidation) implements Lookup {

		/** Release the body when the hit is not written. */
		public void release() {
			if (this.body != null && this.body.refCnt() > 0) {
				this.body.release();
			}
		}

	}

	/**
	 * Answer {@code 304 Not Modified} from an entry: the request's {@code If-None-Match} or
	 * {@code If-Modified-Since} matches it (RFC 9110, section 13.1).
	 *
	 * @param entry the entry
	 * @param ageSeconds the {@code Age} to send
	 * @param tier the tier the entry came from
	 */
	record NotModified(CachedResponse entry, long ageSeconds, CacheTier tier) implements Lookup {

	}

	/**
	 * Render with the application, its response tapped by the ticket.
	 *
	 * @param ticket the ticket: complete or abandon it, always
	 */
	record Miss(Ticket ticket) implements Lookup {

	}

	/**
	 * Render with the application; the cache has nothing to do with this request.
	 *
	 * @param reason why
	 */
	record Bypass(BypassReason reason) implements Lookup {

	}

	/**
	 * A lookup that ends later: the request waits for another request's render of its key (single-flight) or for
	 * the shared tier. Its end is delivered on the request's event loop, never blocking it; call
	 * {@link #whenReady} at once from that loop, or {@link #cancel()} when the request goes away first.
	 */
	final class Deferred implements Lookup {

		private final EventExecutor executor;

		private final CacheRequest request;

		private final AtomicBoolean completed = new AtomicBoolean();

		private volatile Runnable onComplete;

		private Consumer<Lookup> callback;

		private Lookup result;

		private boolean cancelled;

		Deferred(EventExecutor executor, CacheRequest request) {
			this.executor = executor;
			this.request = request;
		}

		CacheRequest request() {
			return this.request;
		}

		void onComplete(Runnable onComplete) {
			this.onComplete = onComplete;
			if (this.completed.get()) {
				onComplete.run();
			}
		}

		/** @return the event loop the result is delivered on */
		public EventExecutor executor() {
			return this.executor;
		}

		/**
		 * Hear the result, on the event loop.
		 * @param callback takes the result (a hit, a 304, a miss or a bypass), and owns it
		 */
		public void whenReady(Consumer<Lookup> callback) {
			if (!this.executor.inEventLoop()) {
				this.executor.execute(() -> whenReady(callback));
				return;
			}
			Lookup result = this.result;
			if (result != null) {
				this.result = null;
				callback.accept(result);
			}
			else {
				this.callback = callback;
			}
		}

		/**
		 * The request went away: a result that arrives is released.
		 */
		public void cancel() {
			if (!this.executor.inEventLoop()) {
				this.executor.execute(this::cancel);
				return;
			}
			this.cancelled = true;
			this.callback = null;
			Lookup result = this.result;
			this.result = null;
			discard(result);
		}

		/**
		 * End the lookup once: the first call wins, and its result is made on the event loop.
		 * @param result makes the result, on the loop
		 * @return whether this call ended it
		 */
		boolean complete(Supplier<Lookup> result) {
			if (!this.completed.compareAndSet(false, true)) {
				return false;
			}
			Runnable onComplete = this.onComplete;
			if (onComplete != null) {
				onComplete.run();
			}
			try {
				this.executor.execute(() -> deliver(result.get()));
			}
			catch (RejectedExecutionException ex) {
				// The loop is shutting down with its connections: nobody is left to answer, but what the answer holds
				// must be let go.
				discard(result.get());
			}
			return true;
		}

		boolean isCompleted() {
			return this.completed.get();
		}

		private void deliver(Lookup result) {
			if (this.cancelled) {
				discard(result);
				return;
			}
			Consumer<Lookup> callback = this.callback;
			if (callback != null) {
				this.callback = null;
				callback.accept(result);
			}
			else {
				this.result = result;
			}
		}

		private static void discard(Lookup result) {
			if (result instanceof Hit hit) {
				hit.release();
				if (hit.revalidation() != null) {
					hit.revalidation().abandon();
				}
			}
			else if (result instanceof Miss miss) {
				miss.ticket().abandon();
			}
		}

	}

}
