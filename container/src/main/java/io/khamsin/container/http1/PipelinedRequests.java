package io.khamsin.container.http1;

import java.util.ArrayDeque;

import io.netty.util.ReferenceCountUtil;

import io.khamsin.container.engine.ServerContext;

/**
 * The requests a client pipelined behind the one being answered, as the base of an {@link Http1ServerHandler}: what
 * the decoder hands over while the connection answers a request that has fully arrived waits here, in order, and is
 * handed over again once that answer is complete. Reading stops while anything waits, or while the application has
 * paused the request body, so that a client cannot queue more than one read's worth.
 * <p>
 * The queue is created when a client first pipelines, so that a connection that never does holds none.
 */
abstract class PipelinedRequests extends ConnectionTimer {

	private ArrayDeque<Object> pending;

	private boolean processingPending;

	private boolean autoReadPaused;

	PipelinedRequests(ServerContext context) {
		super(context);
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

}
