package io.khamsin.container.transport;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.RejectedExecutionHandlers;

/**
 * The server's reactors: one event loop per reactor on the resolved transport, each of which goes back to its
 * sockets after at most {@value #TASK_QUANTUM_MILLIS} ms of tasks.
 * <p>
 * Netty 4.2's event loop runs every task that is due, timers included, for up to a second before it looks at its
 * sockets again. Timeouts come due together when their connections came together: 2,000 slowloris connections opened
 * in bursts of 500 reach their header-read timeout in the same bursts, and each 408 and close held every other request
 * of the reactor until the last one of the burst had run. With a short quantum the reactor serves its sockets between
 * every 64 tasks or so (Netty looks at the clock every 64), and what the burst costs is spread over the turns.
 * <p>
 * Work that holds a reactor for long in one piece, as the signature of a TLS handshake does (about 2 ms with an RSA
 * 2048 key here), goes through {@link #runHeavy}: a reactor runs one such job per pass over its sockets, so that 200
 * ClientHellos arriving together cost the requests of that reactor one signature of waiting each, not 200.
 */
public final class Reactors extends MultiThreadIoEventLoopGroup {

	/** The longest a reactor runs tasks, in milliseconds, before serving its sockets again. */
	static final int TASK_QUANTUM_MILLIS = 1;

	private Reactors(int reactors, ThreadFactory threads, IoHandlerFactory transport) {
		super(reactors, threads, transport);
	}

	/**
	 * @param reactors how many
	 * @param threads the factory of their threads
	 * @param transport the factory of each reactor's I/O handler
	 * @return the reactors
	 */
	public static Reactors create(int reactors, ThreadFactory threads, IoHandlerFactory transport) {
		return new Reactors(reactors, threads, transport);
	}

	/**
	 * Runs a job that holds its reactor for long, such as a full TLS handshake, so that the reactor serves its
	 * sockets between two of them: the first job of a pass over the sockets runs at once, each later one after a pass
	 * of its own, in the order they came. Off a reactor (another event loop, a test's embedded channel) the job runs
	 * at once.
	 * @param executor the executor of the connection the job is for; the caller runs on it
	 * @param job the work; it must not throw
	 */
	public static void runHeavy(EventExecutor executor, Runnable job) {
		if (executor instanceof Reactor reactor && reactor.inEventLoop()) {
			reactor.runHeavy(job);
		}
		else {
			job.run();
		}
	}

	@Override
	protected IoEventLoop newChild(Executor executor, IoHandlerFactory transport, Object... args) {
		return new Reactor(this, executor, transport);
	}

	/**
	 * One reactor: Netty's event loop with the short task quantum, counting its passes over the sockets so that
	 * heavy jobs can be kept one per pass. Its fields are touched by its own thread only.
	 */
	private static final class Reactor extends SingleThreadIoEventLoop {

		/** Heavy jobs waiting for a pass of their own. */
		private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

		private final Runnable runWaiting = this::runWaiting;

		/** How many passes over the sockets this reactor has begun. */
		private long pass;

		/** The pass in which the last heavy job ran. */
		private long heavyPass = -1;

		private boolean runWaitingScheduled;

		Reactor(Reactors reactors, Executor executor, IoHandlerFactory transport) {
			super(reactors, executor, transport, Integer.MAX_VALUE, RejectedExecutionHandlers.reject(),
					TASK_QUANTUM_MILLIS);
		}

		@Override
		protected int runIo() {
			this.pass++;
			return super.runIo();
		}

		void runHeavy(Runnable job) {
			if (this.heavyPass != this.pass && this.waiting.isEmpty()) {
				this.heavyPass = this.pass;
				job.run();
				return;
			}
			this.waiting.add(job);
			scheduleRunWaiting();
		}

		/**
		 * Runs the next waiting job unless one ran in this pass already. A task scheduled now is taken by the
		 * reactor only after its next pass over the sockets (Netty moves due timers to the task queue once per
		 * round of tasks), and a due timer keeps that pass from blocking.
		 */
		private void runWaiting() {
			this.runWaitingScheduled = false;
			if (this.heavyPass != this.pass) {
				Runnable job = this.waiting.poll();
				if (job == null) {
					return;
				}
				this.heavyPass = this.pass;
				if (!this.waiting.isEmpty()) {
					scheduleRunWaiting();
				}
				job.run();
				return;
			}
			scheduleRunWaiting();
		}

		private void scheduleRunWaiting() {
			if (!this.runWaitingScheduled) {
				this.runWaitingScheduled = true;
				schedule(this.runWaiting, 0, TimeUnit.NANOSECONDS);
			}
		}

	}

}
