package io.khamsin.container.http2.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * An attack on one connection: the same few frames written over and over, in batches so that the client is never
 * the bottleneck, until the server reacts (a GOAWAY, or the connection closed or reset) or a bound is reached. A
 * watchdog closes the socket at the time bound, so that a server that stops reading without closing cannot hang
 * the case.
 */
final class Flood {

	private static final int BATCH_BYTES = 32 * 1024;

	private final H2Connection connection;

	private final IntFunction<byte[]> unit;

	private Flood(H2Connection connection, IntFunction<byte[]> unit) {
		this.connection = connection;
		this.unit = unit;
	}

	/**
	 * @param connection the connection to attack
	 * @param unit the bytes of the i-th repetition, one or a few whole frames
	 * @return the attack, not started
	 */
	static Flood of(H2Connection connection, IntFunction<byte[]> unit) {
		return new Flood(connection, unit);
	}

	/**
	 * Run the attack.
	 * @param maxUnits the most repetitions to send
	 * @param maxTime the longest to keep sending
	 * @return how it ended
	 */
	Result run(int maxUnits, Duration maxTime) {
		ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "h2-conformance-flood-watchdog");
			thread.setDaemon(true);
			return thread;
		});
		long start = System.nanoTime();
		AtomicBoolean timedOut = new AtomicBoolean();
		ScheduledFuture<?> alarm = watchdog.schedule(() -> {
			timedOut.set(true);
			try {
				this.connection.close();
			}
			catch (IOException ex) {
				// closing is all that is wanted
			}
		}, maxTime.toMillis(), TimeUnit.MILLISECONDS);
		int sent = 0;
		String end = "the bound of " + maxUnits + " repetitions";
		try {
			ByteArrayOutputStream batch = new ByteArrayOutputStream(BATCH_BYTES + 1024);
			while (sent < maxUnits) {
				if (this.connection.goAwaySeen() != null || this.connection.peerClosed()) {
					end = "the server's answer";
					break;
				}
				int batched = 0;
				while (batch.size() < BATCH_BYTES && sent + batched < maxUnits) {
					batch.writeBytes(this.unit.apply(sent + batched));
					batched++;
				}
				this.connection.send(batch.toByteArray());
				batch.reset();
				sent += batched;
			}
		}
		catch (IOException ex) {
			end = timedOut.get() ? "the time bound of " + maxTime.toMillis() + " ms" : "the connection failing: " + ex;
		}
		finally {
			alarm.cancel(false);
			watchdog.shutdownNow();
		}
		boolean stoppedByServer = !timedOut.get() && !end.startsWith("the bound");
		return new Result(sent, stoppedByServer, end, Duration.ofNanos(System.nanoTime() - start));
	}

	/**
	 * How an attack ended.
	 *
	 * @param unitsSent the repetitions written before it ended
	 * @param stoppedByServer whether the server ended it (GOAWAY, close, reset) rather than a bound
	 * @param end what ended it
	 * @param took how long it ran
	 */
	record Result(int unitsSent, boolean stoppedByServer, String end, Duration took) {

		@Override
		public String toString() {
			return this.unitsSent + " repetitions in " + this.took.toMillis() + " ms, ended by " + this.end;
		}

	}

}
