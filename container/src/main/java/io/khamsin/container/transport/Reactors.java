package io.khamsin.container.transport;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
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

	@Override
	protected IoEventLoop newChild(Executor executor, IoHandlerFactory transport, Object... args) {
		return new SingleThreadIoEventLoop(this, executor, transport, Integer.MAX_VALUE,
				RejectedExecutionHandlers.reject(), TASK_QUANTUM_MILLIS);
	}

}
