package io.khamsin.container.http1;

import java.util.ArrayDeque;

import io.netty.util.ReferenceCountUtil;

import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.transport.ConnectionSecurity;

/**
 * The requests a client pipelined behind the one being answered, as the base of an {@link Http1ServerHandler}: what
 * the decoder hands over while the connection answers a request that has fully arrived waits here, in order, and is
 * handed over again once that answer is complete. Reading stops while anything waits, or while the application has
 * paused the request body, so that a client cannot queue more than one read's worth.
 * <p>
 * It also keeps when each of those requests' heads began to arrive, the start of its clock: HTTP/1.1 answers in
 * arrival order, so the oldest start not yet taken is in a field and those behind it in a ring. The queue and the
 * ring are created when a client first pipelines, so that a connection that never does holds neither.
 */
abstract class PipelinedRequests extends ConnectionTimer {

	private ArrayDeque<Object> pending;

	private boolean processingPending;

	private boolean autoReadPaused;

	private long oldestStart;

	private boolean hasOldestStart;

	private LongRing laterStarts;

	PipelinedRequests(ServerContext context, ConnectionSecurity security, ReactorMetrics reactor) {
		super(context, security, reactor);
	}

	/**
	 * Whether the connection is answering a request that has fully arrived: then what arrives next waits.
	 * @return {@code true} if it is
	 */
	abstract boolean isAnswering();

	/**
	 * Take a decoded message that waited, or that did not have to.
	 * @param msg the message, which the handler releases
	 */
	abstract void handOver(Object msg);

	/**
	 * Whether a decoded message must wait: the connection is answering, or others wait before it.
	 * @return {@code true} if it must
	 */
	final boolean mustWait() {
		return isAnswering() || (this.pending != null && !this.pending.isEmpty());
	}

	/**
	 * Keep a decoded message until the answer in progress is complete, and stop reading meanwhile.
	 * @param msg the message
	 */
	final void enqueue(Object msg) {
		if (this.pending == null) {
			this.pending = new ArrayDeque<>(4);
		}
		this.pending.add(msg);
		updateAutoRead();
	}

	/**
	 * A request head was decoded: keep when it began to arrive until the request is served.
	 * @param startNanos {@link System#nanoTime()} at its first byte
	 */
	final void headDecoded(long startNanos) {
		if (!this.hasOldestStart && (this.laterStarts == null || this.laterStarts.isEmpty())) {
			this.oldestStart = startNanos;
			this.hasOldestStart = true;
		}
		else {
			if (this.laterStarts == null) {
				this.laterStarts = new LongRing(4);
			}
			this.laterStarts.add(startNanos);
		}
	}

	/**
	 * The oldest request decoded and not yet served is being served now.
	 * @return when its head began to arrive, or now if none was kept
	 */
	final long takeStart() {
		if (this.hasOldestStart) {
			this.hasOldestStart = false;
			return this.oldestStart;
		}
		if (this.laterStarts != null && !this.laterStarts.isEmpty()) {
			return this.laterStarts.poll();
		}
		return System.nanoTime();
	}

	/**
	 * Hand over what waited, in order, until the connection closes or answers again; read again if nothing is left.
	 */
	final void processPending() {
		if (this.processingPending) {
			return;
		}
		this.processingPending = true;
		try {
			Object msg;
			while (!this.closed && this.pending != null && !isAnswering() && (msg = this.pending.poll()) != null) {
				handOver(msg);
			}
		}
		finally {
			this.processingPending = false;
		}
		updateAutoRead();
	}

	/**
	 * Release what waited: the connection will not answer it.
	 */
	final void releasePending() {
		if (this.pending != null) {
			Object msg;
			while ((msg = this.pending.poll()) != null) {
				ReferenceCountUtil.release(msg);
			}
		}
	}

	/**
	 * Read while nothing waits and the request body is not paused; stop reading otherwise.
	 */
	final void updateAutoRead() {
		boolean pause = (this.pending != null && !this.pending.isEmpty()) || isBodyPaused();
		if (pause != this.autoReadPaused && !this.closed) {
			this.autoReadPaused = pause;
			this.ctx.channel().config().setAutoRead(!pause);
		}
	}

	/**
	 * A first-in first-out queue of longs that grows only when more requests are pipelined than ever before on the
	 * connection. Its capacity stays a power of two, so that positions wrap with a mask, not a division.
	 */
	static final class LongRing {

		private long[] values;

		private int head;

		private int size;

		LongRing(int capacity) {
			this.values = new long[Integer.highestOneBit(Math.max(2, capacity - 1)) << 1];
		}

		boolean isEmpty() {
			return this.size == 0;
		}

		void add(long value) {
			int mask = this.values.length - 1;
			if (this.size == this.values.length) {
				long[] grown = new long[this.values.length * 2];
				for (int i = 0; i < this.size; i++) {
					grown[i] = this.values[(this.head + i) & mask];
				}
				this.values = grown;
				this.head = 0;
				mask = grown.length - 1;
			}
			this.values[(this.head + this.size) & mask] = value;
			this.size++;
		}

		long poll() {
			long value = this.values[this.head];
			this.head = (this.head + 1) & (this.values.length - 1);
			this.size--;
			return value;
		}

	}

}
