package io.khamsin.container.transport;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 * 2048 key here), goes through {@link #runHeavy}: heavy jobs and the reactor's other work share its time. In a pass
 * over the sockets the heavy jobs may take as much of the thread's CPU time as everything else took in the pass
 * before, and at least one runs: 200 ClientHellos arriving together at a reactor that serves little cost each of its
 * requests about one signature of waiting, not 200; and a reactor busy with many connections, whose passes last tens
 * of milliseconds, still answers a burst of new connections within a pass or two, where one handshake a pass left 34
 * of 64 TLS connections opened at once under HTTP/2 load to time out.
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
	 * sockets between such jobs: in each pass over the sockets the first waiting job runs, and more while the jobs of
	 * the pass have taken less CPU time than the reactor's other work took in the pass before; the rest wait for the
	 * next pass, in the order they came. Off a reactor (another event loop, a test's embedded channel) the job runs
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
	 * One reactor: Netty's event loop with the short task quantum, which shares its time between heavy jobs and the
	 * rest of its work pass by pass. Its fields are touched by its own thread only.
	 */
	private static final class Reactor extends SingleThreadIoEventLoop {

		private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

		/** Heavy jobs waiting for a pass of their own. */
		private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

		private final Runnable runWaiting = this::runWaiting;

		/** Whether a heavy job ran in this pass. */
		private boolean heavyRan;

		/** The CPU time the heavy jobs of this pass took, in nanoseconds. */
		private long heavySpent;

		/** The CPU time the heavy jobs of this pass may take: what the other work of the pass before took. */
		private long heavyBudget;

		/** The thread's CPU time when this pass began, or -1 when the pass is not measured. */
		private long passStart = -1;

		private boolean runWaitingScheduled;

		Reactor(Reactors reactors, Executor executor, IoHandlerFactory transport) {
			super(reactors, executor, transport, Integer.MAX_VALUE, RejectedExecutionHandlers.reject(),
					TASK_QUANTUM_MILLIS);
		}

		@Override
		protected int runIo() {
			// The thread's CPU time is read only around passes that have heavy jobs in them or waiting, so that a
			// reactor without any pays nothing; a pass that blocked counts its CPU time, not its wait.
			if (this.heavyRan || !this.waiting.isEmpty()) {
				long now = THREADS.getCurrentThreadCpuTime();
				this.heavyBudget = (this.passStart >= 0) ? Math.max(0, now - this.passStart - this.heavySpent) : 0;
				this.passStart = now;
			}
			else {
				this.heavyBudget = 0;
				this.passStart = -1;
			}
			this.heavyRan = false;
			this.heavySpent = 0;
			return super.runIo();
		}

		void runHeavy(Runnable job) {
			if (this.waiting.isEmpty() && mayRunHeavy()) {
				runNow(job);
				return;
			}
			this.waiting.add(job);
			scheduleRunWaiting();
		}

		private boolean mayRunHeavy() {
			return !this.heavyRan || this.heavySpent < this.heavyBudget;
		}

		private void runNow(Runnable job) {
			long start = THREADS.getCurrentThreadCpuTime();
			this.heavyRan = true;
			try {
				job.run();
			}
			finally {
				this.heavySpent += THREADS.getCurrentThreadCpuTime() - start;
			}
		}

		/**
		 * Runs the waiting jobs this pass has room for. A task scheduled now is taken by the reactor only after its
		 * next pass over the sockets (Netty moves due timers to the task queue once per round of tasks), and a due
		 * timer keeps that pass from blocking.
		 */
		private void runWaiting() {
			this.runWaitingScheduled = false;
			while (!this.waiting.isEmpty() && mayRunHeavy()) {
				runNow(this.waiting.poll());
			}
			if (!this.waiting.isEmpty()) {
				scheduleRunWaiting();
			}
		}

		private void scheduleRunWaiting() {
			if (!this.runWaitingScheduled) {
				this.runWaitingScheduled = true;
				schedule(this.runWaiting, 0, TimeUnit.NANOSECONDS);
			}
		}

	}

}
