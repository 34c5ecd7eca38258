package io.khamsin.container.exchange;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.guard.OverloadConfig;

/**
 * Admission control ({@code khamsin.overload.max-queue-delay}): whether a request for the application is taken or
 * refused at once because its reactor is past its capacity.
 * <p>
 * A reactor serves in turns: it takes from the kernel what its connections received, reads and answers each, then
 * runs its queued tasks and goes back to the kernel. A request read in a turn waited, at most, for the reactor's
 * work in that turn before it; past the capacity that work grows with the number of requests waiting. The reactor
 * thread's CPU time since the turn's first request is how much of it there was (CPU time, not the clock: a turn
 * that waits for the kernel, or a thread the machine's other work preempts, did not keep a request waiting on
 * khamsin's account). A request read when it exceeds the maximum is refused, which costs the reactor a few
 * microseconds instead of the handler's time, so the turn ends sooner and the next one admits again: the reactor
 * keeps serving at its capacity with a bounded wait and refuses the rest. The first two requests of a turn are always
 * taken, so a reactor never refuses everything, and the time is counted from the second, so that one costly request
 * (a cold server's first, before the JIT compiled its path) does not make the next one refused. The turn's end is a task queued at its first request, which the
 * reactor runs once it is done with what the kernel gave it.
 * <p>
 * What it cannot see: requests waiting in the clients or in a proxy in front (a connection that sends its next
 * request only after its answer has no second request waiting in khamsin), and work a handler hands to a pool of
 * its own.
 */
final class Admission {

	private static final Logger logger = LoggerFactory.getLogger(Admission.class);

	private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

	private final long maxQueueDelayNanos;

	private final Duration maxQueueDelay;

	private final GuardCounters guards;

	private final FastThreadLocal<Turn> turns = new FastThreadLocal<>() {

		@Override
		protected Turn initialValue() {
			return new Turn();
		}

	};

	private volatile long lastLogged = System.nanoTime() - LOG_INTERVAL_NANOS;

	private Admission(OverloadConfig config, GuardCounters guards) {
		this.maxQueueDelay = config.maxQueueDelay();
		this.maxQueueDelayNanos = this.maxQueueDelay.toNanos();
		this.guards = guards;
	}

	/**
	 * The admission control of a server.
	 * @param config its configuration
	 * @param guards where refusals are counted
	 * @return the admission control, or {@code null} when it is off
	 */
	static Admission of(OverloadConfig config, GuardCounters guards) {
		return config.enabled() ? new Admission(config, guards) : null;
	}

	/**
	 * Whether a request read now on {@code loop} is taken. A refusal is counted; the caller answers it.
	 * @param loop the reactor that read it, the calling thread's
	 * @return {@code true} if it is taken
	 */
	boolean admits(EventLoop loop) {
		long waited = this.turns.get().elapsed(loop);
		if (waited <= this.maxQueueDelayNanos) {
			return true;
		}
		this.guards.increment(Guard.OVERLOAD);
		long now = System.nanoTime();
		if (now - this.lastLogged >= LOG_INTERVAL_NANOS) {
			this.lastLogged = now;
			logger.warn("khamsin is past its capacity: requests waited more than " + this.maxQueueDelay
					+ " (khamsin.overload.max-queue-delay) for reactor " + Thread.currentThread().getName()
					+ " and are answered 503 with Retry-After (guard 'overload', " + this.guards.count(Guard.OVERLOAD)
					+ " so far). Add capacity (instances, reactors) or make the handlers cheaper; "
					+ "this is logged at most every 10 s");
		}
		return false;
	}

	/** One reactor's current turn. */
	private static final class Turn implements Runnable {

		private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

		/** Where the JVM cannot tell a thread's CPU time, the clock stands in for it. */
		private static final boolean CPU_TIME = THREADS.isCurrentThreadCpuTimeSupported()
				&& THREADS.isThreadCpuTimeEnabled();

		private long start;

		/** Requests read in this turn so far; 0: no turn is open. */
		private int requests;

		/**
		 * @return the reactor's thread's CPU time in this turn since its second request: the first request's own work
		 * is not counted, so that one costly request (a cold server's first) does not make the next one refused
		 */
		long elapsed(EventLoop loop) {
			int requests = this.requests++;
			if (requests == 0) {
				loop.execute(this);
				return 0;
			}
			long now = CPU_TIME ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
			if (requests == 1) {
				this.start = now;
				return 0;
			}
			return now - this.start;
		}

		@Override
		public void run() {
			this.requests = 0;
		}

	}

}
