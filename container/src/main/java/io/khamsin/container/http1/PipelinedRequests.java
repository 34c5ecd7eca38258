package io.khamsin.container.http1;

import java.util.ArrayDeque;

import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;

/**
 * The requests a client pipelined behind the one being answered: what the decoder hands over while the connection
 * answers a request that has fully arrived waits here, in order, and is handed over again once that answer is
 * complete. Reading stops while anything waits, or while the application has paused the request body, so that a
 * client cannot queue more than one read's worth.
 * <p>
 * It also keeps when each of those requests' heads began to arrive, the start of its clock: HTTP/1.1 answers in
 * arrival order, so the oldest start not yet taken is in a field and those behind it in a ring. The queue and the
 * ring are created when a client first pipelines, so that a connection that never does holds neither.
 */
final class PipelinedRequests {

	private final Receiver connection;

	private final Channel channel;

	private ArrayDeque<Object> pending;

	private boolean processingPending;

	private boolean autoReadPaused;

	private long oldestStart;

	private boolean hasOldestStart;

	private LongRing laterStarts;

	PipelinedRequests(Receiver connection, Channel channel) {
		this.connection = connection;
		this.channel = channel;
	}

	/**
	 * Whether a decoded message must wait: the connection is answering, or others wait before it.
	 * @return {@code true} if it must
	 */
	boolean mustWait() {
		return this.connection.isAnswering() || (this.pending != null && !this.pending.isEmpty());
	}

	/**
	 * Keep a decoded message until the answer in progress is complete, and stop reading meanwhile.
	 * @param msg the message
	 */
	void enqueue(Object msg) {
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
	void headDecoded(long startNanos) {
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
	long takeStart() {
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
	void processPending() {
		if (this.processingPending) {
			return;
		}
		this.processingPending = true;
		try {
			Object msg;
			while (!this.connection.isClosed() && this.pending != null && !this.connection.isAnswering()
					&& (msg = this.pending.poll()) != null) {
				this.connection.handOver(msg);
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
	void releasePending() {
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
	void updateAutoRead() {
		boolean pause = (this.pending != null && !this.pending.isEmpty()) || this.connection.isBodyPaused();
		if (pause != this.autoReadPaused && !this.connection.isClosed()) {
			this.autoReadPaused = pause;
			this.channel.config().setAutoRead(!pause);
		}
	}

	/**
	 * What the queue asks of its connection. Every method is called on the connection's event loop.
	 */
	interface Receiver {

		/** @return whether the connection is answering a request that has fully arrived: what arrives next waits */
		boolean isAnswering();

		/**
		 * Take a decoded message that waited.
		 * @param msg the message, which the connection releases
		 */
		void handOver(Object msg);

		/** @return whether the connection closed, after which nothing more is handed over */
		boolean isClosed();

		/** @return whether the application paused the request body, which stops reading too */
		boolean isBodyPaused();

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
