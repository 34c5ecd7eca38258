package io.khamsin.container.metrics;

import java.lang.management.ManagementFactory;
import java.util.Map;

import io.netty.channel.embedded.EmbeddedChannel;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A reactor's figures on their own: requests are recorded under their own tags in whatever order they end (as the
 * streams of one HTTP/2 connection would end them), a request cut off is counted without a latency, connections are
 * counted apart from requests, and recording a request allocates nothing.
 */
class ReactorMetricsTests {

	private final KhamsinMetrics metrics = KhamsinMetrics.create(MetricsConfig.defaults());

	private final ReactorMetrics reactor = this.metrics.reactor(new EmbeddedChannel().eventLoop());

	@Test
	void requestsAreRecordedUnderTheirOwnTagsInWhateverOrderTheyEnd() {
		long start = System.nanoTime();
		for (int i = 0; i < 3; i++) {
			this.reactor.requestStarted();
		}
		assertThat(this.metrics.totals().requestsActive()).isEqualTo(3);
		// The last to start ends first.
		this.reactor.requestEnded(Protocol.H1, 201, "/a", RequestPath.HANDLER, start);
		this.reactor.requestEnded(Protocol.H1, 404, "/b", RequestPath.HANDLER, start);
		this.reactor.requestEnded(Protocol.H1, 200, "/a", RequestPath.HANDLER, start);
		Map<LatencyKey, Histogram> latencies = this.metrics.latency().sinceStart();
		assertThat(latencies).containsOnlyKeys(key("2xx", "/a"), key("4xx", "/b"));
		assertThat(latencies.get(key("2xx", "/a")).getTotalCount()).isEqualTo(2);
		assertThat(this.metrics.totals().requestsActive()).isZero();
		assertThat(this.metrics.totals().requests()).isEqualTo(3);
	}

	@Test
	void aRequestCutOffIsCountedWithoutALatency() {
		this.reactor.requestStarted();
		this.reactor.requestEnded();
		assertThat(this.metrics.latency().sinceStart()).isEmpty();
		assertThat(this.metrics.totals().requestsActive()).isZero();
		assertThat(this.metrics.totals().requests()).isEqualTo(1);
	}

	@Test
	void connectionsAreCountedApartFromRequests() {
		this.reactor.connectionAccepted();
		this.reactor.connectionAccepted();
		this.reactor.requestStarted();
		this.reactor.connectionClosed();
		this.reactor.connectionRefused();
		ReactorSnapshot totals = this.metrics.totals();
		assertThat(totals.connectionsOpen()).isEqualTo(1);
		assertThat(totals.connectionsClosed()).isEqualTo(1);
		assertThat(totals.connectionsRefused()).isEqualTo(1);
		assertThat(totals.requestsActive()).isEqualTo(1);
	}

	@Test
	void aFixedResponseIsRecordedUnderTheFixedRouteAndTheFastPath() {
		this.reactor.requestStarted();
		int key = this.reactor.latencyKey(Protocol.H1, 200, Route.FIXED, RequestPath.FAST);
		this.reactor.requestEnded(key, System.nanoTime() - 5_000);
		assertThat(this.metrics.latency().sinceStart())
			.containsOnlyKeys(new LatencyKey(Protocol.H1, "2xx", "fixed", RequestPath.FAST));
	}

	@Test
	void switchedOffNothingIsCounted() {
		KhamsinMetrics off = KhamsinMetrics.create(MetricsConfig.builder().enabled(false).build());
		ReactorMetrics reactor = off.reactor(new EmbeddedChannel().eventLoop());
		reactor.requestStarted();
		reactor.requestEnded(Protocol.H1, 200, "/a", RequestPath.HANDLER, System.nanoTime());
		reactor.bytesReceived(100);
		assertThat(off.totals().requests()).isZero();
		assertThat(off.totals().bytesReceived()).isZero();
		assertThat(off.latency().sinceStart()).isEmpty();
	}

	@Test
	void recordingARequestAllocatesNothing() {
		assumeThat(ManagementFactory.getThreadMXBean()).isInstanceOf(com.sun.management.ThreadMXBean.class);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
		threads.setThreadAllocatedMemoryEnabled(true);
		int requests = 200_000;
		// Warm up: the first request of a tag combination creates its recorder, once.
		record(requests / 2);
		long before = threads.getCurrentThreadAllocatedBytes();
		record(requests / 2);
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		assertThat(allocated).as("bytes allocated by %d requests", requests / 2).isLessThan(requests / 2);
		assertThat(this.metrics.latency().sinceStart().get(key("2xx", "/items/{id}")).getTotalCount())
			.isEqualTo(requests);
	}

	private void record(int requests) {
		for (int i = 0; i < requests; i++) {
			long start = System.nanoTime();
			this.reactor.requestStarted();
			this.reactor.bytesReceived(80);
			this.reactor.requestEnded(Protocol.H1, 200, "/items/{id}", RequestPath.HANDLER, start);
		}
	}

	private static LatencyKey key(String status, String route) {
		return new LatencyKey(Protocol.H1, status, route, RequestPath.HANDLER);
	}

}
