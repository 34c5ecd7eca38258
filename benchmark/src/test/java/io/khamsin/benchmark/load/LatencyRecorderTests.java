package io.khamsin.benchmark.load;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyRecorderTests {

	private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

	private static final long US = TimeUnit.MICROSECONDS.toNanos(1);

	@Test
	void aStallIsChargedToEveryRequestScheduledDuringIt() {
		// One connection, a request due every millisecond for one second, each answered in 100 us, except
		// request 500 which takes 100 ms: the 100 requests due meanwhile wait in the queue and leave late.
		LatencyRecorder recorder = new LatencyRecorder();
		long free = 0;
		for (int i = 0; i < 1000; i++) {
			long intended = i * MS;
			long sent = Math.max(free, intended);
			long done = sent + ((i == 500) ? 100 * MS : 100 * US);
			recorder.record(intended, sent, done);
			free = done;
		}

		assertThat(recorder.responseTime().getTotalCount()).isEqualTo(1000);
		assertThat(recorder.serviceTime().getValueAtPercentile(99)).isLessThan(MS);
		assertThat(recorder.responseTime().getValueAtPercentile(99)).isGreaterThan(80 * MS);
		assertThat(recorder.responseTime().getValueAtPercentile(95)).isGreaterThan(40 * MS);
		assertThat(recorder.responseTime().getValueAtPercentile(50)).isLessThan(MS);
		assertThat(recorder.responseTime().getMaxValue()).isBetween(99 * MS, 101 * MS);
	}

	@Test
	void sendLagIsHowLateARequestLeftAgainstItsSchedule() {
		LatencyRecorder recorder = new LatencyRecorder();

		recorder.record(0, 3 * MS, 4 * MS);

		assertThat(recorder.sendLag().getMaxValue()).isBetween(3 * MS - 10 * US, 3 * MS + 10 * US);
		assertThat(recorder.responseTime().getMaxValue()).isBetween(4 * MS - 10 * US, 4 * MS + 10 * US);
		assertThat(recorder.serviceTime().getMaxValue()).isBetween(MS - US, MS + US);
	}

}
