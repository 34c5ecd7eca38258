package io.khamsin.container.metrics;

import java.lang.management.ManagementFactory;
import java.util.Map;

import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A connection's figures on their own, on an embedded channel: pipelined requests keep their order, a failed or
 * cut-off response records no latency, and recording a request allocates nothing.
 */
class ConnectionFiguresTests {

	private final KhamsinMetrics metrics = KhamsinMetrics.create(MetricsConfig.defaults());

	private final EmbeddedChannel channel = new EmbeddedChannel();

	private final ReactorMetrics reactor = this.metrics.reactor(this.channel.eventLoop());

	private final ConnectionFigures figures = this.reactor.newConnection(Protocol.H1);

	@Test
	void pipelinedRequestsAreRecordedUnderTheirOwnTagsWhenTheirWritesComplete() {
		for (int i = 0; i < 3; i++) {
			this.figures.headStarted();
			this.figures.headReceived();
		}
		ChannelPromise[] writes = new ChannelPromise[3];
		String[] routes = { "/a", "/b", "/a" };
		int[] statuses = { 200, 404, 201 };
		for (int i = 0; i < 3; i++) {
			this.figures.requestStarted();
			writes[i] = this.channel.newPromise();
			this.figures.requestCompleted(writes[i], statuses[i], routes[i], RequestPath.HANDLER);
		}
		assertThat(this.metrics.totals().requestsActive()).isEqualTo(3);
		assertThat(this.metrics.latency().sinceStart()).isEmpty();
		for (ChannelPromise write : writes) {
			write.setSuccess();
		}
		Map<LatencyKey, Histogram> latencies = this.metrics.latency().sinceStart();
		assertThat(latencies).hasSize(2);
		assertThat(latencies.get(key("2xx", "/a")).getTotalCount()).isEqualTo(2);
		assertThat(latencies.get(key("4xx", "/b")).getTotalCount()).isEqualTo(1);
		assertThat(this.metrics.totals().requestsActive()).isZero();
		assertThat(this.metrics.totals().requests()).isEqualTo(3);
	}

	@Test
	void deeplyPipelinedRequestsKeepTheirOrderWhenTheQueuesGrow() {
		int depth = 37;
		for (int i = 0; i < depth; i++) {
			this.figures.headStarted();
			this.figures.headReceived();
		}
		ChannelPromise[] writes = new ChannelPromise[depth];
		for (int i = 0; i < depth; i++) {
			this.figures.requestStarted();
			writes[i] = this.channel.newPromise();
			this.figures.requestCompleted(writes[i], (i % 2 == 0) ? 200 : 500, "/r" + (i % 3), RequestPath.HANDLER);
		}
		for (ChannelPromise write : writes) {
			write.setSuccess();
		}
		Map<LatencyKey, Histogram> latencies = this.metrics.latency().sinceStart();
		long total = 0;
		for (int r = 0; r < 3; r++) {
			for (String status : new String[] { "2xx", "5xx" }) {
				long expected = 0;
				for (int i = 0; i < depth; i++) {
					if (i % 3 == r && ((i % 2 == 0) == status.equals("2xx"))) {
						expected++;
					}
				}
				Histogram histogram = latencies.get(key(status, "/r" + r));
				assertThat((histogram != null) ? histogram.getTotalCount() : 0).as("%s /r%d", status, r)
					.isEqualTo(expected);
				total += expected;
			}
		}
		assertThat(total).isEqualTo(depth);
		assertThat(this.metrics.totals().requestsActive()).isZero();
	}

	@Test
	void aResponseQueuedBehindOneWhoseWriteCompletedKeepsItsPlace() {
		ChannelPromise first = request(200, "/a");
		ChannelPromise second = request(404, "/b");
		first.setSuccess();
		ChannelPromise third = request(500, "/c");
		second.setSuccess();
		assertThat(this.metrics.latency().sinceStart()).containsOnlyKeys(key("2xx", "/a"), key("4xx", "/b"));
		third.setSuccess();
		assertThat(this.metrics.latency().sinceStart()).containsOnlyKeys(key("2xx", "/a"), key("4xx", "/b"),
				key("5xx", "/c"));
		assertThat(this.metrics.totals().requestsActive()).isZero();
	}

	private ChannelPromise request(int status, String route) {
		this.figures.headStarted();
		this.figures.headReceived();
		this.figures.requestStarted();
		ChannelPromise write = this.channel.newPromise();
		this.figures.requestCompleted(write, status, route, RequestPath.HANDLER);
		return write;
	}

	@Test
	void aFailedWriteEndsTheRequestWithoutALatency() {
		this.figures.headStarted();
		this.figures.headReceived();
		this.figures.requestStarted();
		ChannelPromise write = this.channel.newPromise();
		this.figures.requestCompleted(write, 200, null, RequestPath.HANDLER);
		write.setFailure(new java.io.IOException("reset"));
		assertThat(this.metrics.latency().sinceStart()).isEmpty();
		assertThat(this.metrics.totals().requestsActive()).isZero();
	}

	@Test
	void aConnectionClosedMidRequestLeavesNoneInFlight() {
		this.figures.headStarted();
		this.figures.headReceived();
		this.figures.requestStarted();
		this.figures.connectionClosed();
		this.figures.connectionClosed();
		ReactorSnapshot totals = this.metrics.totals();
		assertThat(totals.requestsActive()).isZero();
		assertThat(totals.connectionsOpen()).isZero();
		assertThat(totals.connectionsClosed()).isEqualTo(1);
	}

	@Test
	void aFixedResponseIsRecordedUnderTheFixedRouteAndTheFastPath() {
		this.reactor.recordRequest(System.nanoTime() - 5_000, 200, Route.FIXED, RequestPath.FAST);
		assertThat(this.metrics.latency().sinceStart())
			.containsOnlyKeys(new LatencyKey(Protocol.H1, "2xx", "fixed", RequestPath.FAST));
	}

	@Test
	void recordingARequestAllocatesNothing() {
		assumeThat(ManagementFactory.getThreadMXBean()).isInstanceOf(com.sun.management.ThreadMXBean.class);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
		threads.setThreadAllocatedMemoryEnabled(true);
		int requests = 200_000;
		ChannelPromise[] writes = new ChannelPromise[requests];
		for (int i = 0; i < requests; i++) {
			writes[i] = this.channel.newPromise();
		}
		// Warm up: the first request of a tag combination creates its recorder, once.
		record(writes, 0, requests / 2);
		long before = threads.getCurrentThreadAllocatedBytes();
		record(writes, requests / 2, requests);
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		assertThat(allocated).as("bytes allocated by %d requests", requests / 2).isLessThan(requests / 2);
		assertThat(this.metrics.latency().sinceStart().get(key("2xx", "/items/{id}")).getTotalCount())
			.isEqualTo(requests);
	}

	private void record(ChannelPromise[] writes, int from, int to) {
		for (int i = from; i < to; i++) {
			this.figures.headStarted();
			this.figures.headReceived();
			this.figures.requestStarted();
			this.figures.requestCompleted(writes[i], 200, "/items/{id}", RequestPath.HANDLER);
			writes[i].setSuccess();
		}
	}

	private static LatencyKey key(String status, String route) {
		return new LatencyKey(Protocol.H1, status, route, RequestPath.HANDLER);
	}

}
