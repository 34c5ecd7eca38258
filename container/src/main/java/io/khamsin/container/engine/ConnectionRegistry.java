package io.khamsin.container.engine;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;

/**
 * The open connections of one server: admits a new connection while fewer than the configured maximum are
 * open, counts those refused, and tells a graceful shutdown when the last connection has closed. Each reactor's
 * connections are kept in a plain identity set touched only on that reactor's thread, which costs a connection a
 * slot or two of an array where one concurrent set cost it a 32-byte node and contended on every accept.
 */
public final class ConnectionRegistry {

	private final int maxConnections;

	private final AtomicInteger open = new AtomicInteger();

	private final LongAdder accepted = new LongAdder();

	private final LongAdder refused = new LongAdder();

	private final ConcurrentHashMap<EventExecutor, Set<Channel>> reactors = new ConcurrentHashMap<>();

	private volatile CompletableFuture<ShutdownResult> drained;

	private volatile CompletableFuture<Void> emptied;

	/**
	 * Create a registry.
	 * @param maxConnections the most connections open at once
	 */
	public ConnectionRegistry(int maxConnections) {
		this.maxConnections = maxConnections;
	}

	/**
	 * Admit a newly accepted connection, or refuse it when the limit is reached or the server is draining. Called
	 * on the connection's event loop.
	 * @param channel the connection
	 * @return {@code true} if admitted, and the caller tells {@link #closed(Channel)} when it closes; a refused
	 * connection must be closed by the caller
	 */
	public boolean admit(Channel channel) {
		if (this.drained != null) {
			this.refused.increment();
			return false;
		}
		if (this.open.incrementAndGet() > this.maxConnections) {
			this.open.decrementAndGet();
			this.refused.increment();
			return false;
		}
		Set<Channel> channels = this.reactors.computeIfAbsent(channel.eventLoop(),
				(loop) -> Collections.newSetFromMap(new IdentityHashMap<>()));
		channels.add(channel);
		if (this.drained != null) {
			// A drain began meanwhile and may have looked for this reactor's set before it existed, or counted no
			// connection open: refuse this one as if it had come after.
			channels.remove(channel);
			this.refused.increment();
			release();
			return false;
		}
		this.accepted.increment();
		return true;
	}

	/**
	 * An admitted connection closed. Called on its event loop.
	 * @param channel the connection
	 */
	public void closed(Channel channel) {
		Set<Channel> channels = this.reactors.get(channel.eventLoop());
		if (channels != null) {
			channels.remove(channel);
		}
		release();
	}

	private void release() {
		if (this.open.decrementAndGet() == 0) {
			CompletableFuture<ShutdownResult> drained = this.drained;
			if (drained != null) {
				drained.complete(ShutdownResult.IDLE);
			}
			CompletableFuture<Void> emptied = this.emptied;
			if (emptied != null) {
				emptied.complete(null);
			}
		}
	}

	/**
	 * Start draining: refuse new connections and ask every open one to finish its work and close.
	 * @return completes with {@link ShutdownResult#IDLE} once no connection is open
	 */
	public synchronized CompletableFuture<ShutdownResult> drain() {
		if (this.drained == null) {
			this.drained = new CompletableFuture<>();
			forEachChannel((channel) -> channel.pipeline().fireUserEventTriggered(DrainEvent.INSTANCE));
			if (this.open.get() == 0) {
				this.drained.complete(ShutdownResult.IDLE);
			}
		}
		return this.drained;
	}

	/**
	 * Close every open connection at once; a graceful shutdown in progress ends with
	 * {@link ShutdownResult#REQUESTS_ACTIVE} if any was still open. The connections close on their reactors, after
	 * this returns: a caller about to stop the reactors waits for the returned future first, so that no read is
	 * still in flight on a connection when its reactor releases what it holds.
	 * @return completes once no connection is open
	 */
	public CompletableFuture<Void> closeAll() {
		CompletableFuture<ShutdownResult> drained = this.drained;
		if (drained != null && this.open.get() > 0) {
			drained.complete(ShutdownResult.REQUESTS_ACTIVE);
		}
		CompletableFuture<Void> emptied = new CompletableFuture<>();
		this.emptied = emptied;
		if (this.open.get() <= 0) {
			emptied.complete(null);
		}
		forEachChannel(Channel::close);
		return emptied;
	}

	private void forEachChannel(Consumer<Channel> action) {
		this.reactors.forEach((reactor, channels) -> {
			Runnable task = () -> {
				// A copy: closing a channel removes it from the set.
				for (Channel channel : channels.toArray(new Channel[0])) {
					action.accept(channel);
				}
			};
			try {
				reactor.execute(task);
			}
			catch (RejectedExecutionException ex) {
				// The reactor has stopped, and its connections with it.
			}
		});
	}

	/**
	 * Forget a finished shutdown so that the server can be started again.
	 */
	public synchronized void reset() {
		this.drained = null;
		this.emptied = null;
		// A server starts on new reactors.
		this.reactors.clear();
	}

	/** @return the most connections open at once, {@code khamsin.max-connections} */
	public int maxConnections() {
		return this.maxConnections;
	}

	/** @return the number of connections open now */
	public int open() {
		return Math.max(0, this.open.get());
	}

	/** @return the number of connections admitted since start */
	public long accepted() {
		return this.accepted.sum();
	}

	/** @return the number of connections refused since start */
	public long refused() {
		return this.refused.sum();
	}

	/** @return whether a graceful shutdown has started */
	public boolean isDraining() {
		return this.drained != null;
	}

}
