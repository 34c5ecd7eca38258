package io.khamsin.actuate.metrics;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.egress.EgressReason;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.HandshakeFailure;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.LatencyKey;
import io.khamsin.container.metrics.LatencyListener;

/**
 * Binds khamsin's figures to a {@link MeterRegistry}, so that Boot's meter filters and common tags apply:
 * <ul>
 * <li>{@code khamsin.requests}, a timer tagged {@code protocol}, {@code status}, {@code route} and
 * {@code path}, with a percentile histogram (Prometheus: {@code khamsin_requests_seconds_bucket}).
 * <li>{@code khamsin.connections.active}, {@code .accepted}, {@code .refused}; {@code khamsin.requests.active};
 * {@code khamsin.bytes.received}, {@code .sent}; {@code khamsin.guard.events} tagged {@code guard};
 * {@code khamsin.tls.handshakes} tagged {@code result} ({@code full}, {@code resumed}) and
 * {@code khamsin.tls.handshake.failures} tagged {@code reason}, and {@code khamsin.tls.closed.before.hello}.
 * <li>{@code khamsin.quic.connections.active}, {@code khamsin.quic.streams.active}; {@code khamsin.quic.retries},
 * {@code khamsin.quic.tokens.rejected}; {@code khamsin.quic.packets} tagged {@code direction} ({@code sent},
 * {@code received}) and {@code khamsin.quic.packets.lost}, summed over the HTTP/3 connections as each closes.
 * </ul>
 * The event loops never touch a Micrometer meter: a background thread drains the engine's latency histograms
 * once per {@code drainInterval} and records what they hold into the timers, and the counts are read on scrape.
 * The timers therefore lag the requests by up to one drain interval.
 */
public final class KhamsinMeterBinder implements MeterBinder, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(KhamsinMeterBinder.class);

	private final KhamsinMetrics metrics;

	private final TimerSettings timerSettings;

	private final Duration drainInterval;

	private ScheduledExecutorService drainer;

	/**
	 * Create a binder.
	 * @param metrics the engine's figures
	 * @param timerSettings the histogram of the {@code khamsin.requests} timer
	 * @param drainInterval how often the latencies move from the engine to the timers
	 */
	public KhamsinMeterBinder(KhamsinMetrics metrics, TimerSettings timerSettings, Duration drainInterval) {
		if (metrics == null) {
			throw new IllegalArgumentException("metrics must not be null");
		}
		if (drainInterval == null || drainInterval.isNegative() || drainInterval.isZero()) {
			throw new IllegalArgumentException("drainInterval must be a positive duration, was " + drainInterval);
		}
		this.metrics = metrics;
		this.timerSettings = timerSettings;
		this.drainInterval = drainInterval;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		KhamsinMetrics metrics = this.metrics;
		Gauge.builder("khamsin.connections.active", metrics, (m) -> m.totals().connectionsOpen())
			.description("Connections open now")
			.register(registry);
		FunctionCounter.builder("khamsin.connections.accepted", metrics, (m) -> m.totals().connectionsAccepted())
			.description("Connections admitted since start")
			.register(registry);
		FunctionCounter.builder("khamsin.connections.refused", metrics, (m) -> m.totals().connectionsRefused())
			.description("Connections refused since start: too many open, or shutting down")
			.register(registry);
		for (Guard guard : Guard.values()) {
			FunctionCounter.builder("khamsin.guard.events", metrics, (m) -> m.guards().count(guard))
				.description("Times a guard (limit or timeout) was enforced")
				.tag("guard", guard.tag())
				.register(registry);
		}
		for (EgressReason reason : EgressReason.values()) {
			FunctionCounter.builder("khamsin.egress.file.bodies", metrics, (m) -> m.egress().count(reason))
				.description("File bodies that left by the kernel (sendfile) or through pooled buffers (userspace), and why")
				.tag("path", reason.path().tag())
				.tag("reason", reason.tag())
				.register(registry);
		}
		FunctionCounter.builder("khamsin.tls.handshakes", metrics, (m) -> m.tls().totals().full())
			.description("TLS handshakes completed since start, full (a new session) or resumed")
			.tag("result", "full")
			.register(registry);
		FunctionCounter.builder("khamsin.tls.handshakes", metrics, (m) -> m.tls().totals().resumed())
			.description("TLS handshakes completed since start, full (a new session) or resumed")
			.tag("result", "resumed")
			.register(registry);
		for (HandshakeFailure reason : HandshakeFailure.values()) {
			FunctionCounter.builder("khamsin.tls.handshake.failures", metrics, (m) -> m.tls().totals().failed(reason))
				.description("TLS handshakes that failed since start, by reason")
				.tag("reason", reason.tag())
				.register(registry);
		}
		FunctionCounter
			.builder("khamsin.tls.closed.before.hello", metrics, (m) -> m.tls().totals().closedBeforeHello())
			.description("Connections to a TLS port that closed before they sent a byte (TCP health checks, port "
					+ "scans): no handshake, so neither made nor failed")
			.register(registry);
		bindQuic(registry, metrics);
		if (!metrics.enabled()) {
			return;
		}
		Gauge.builder("khamsin.requests.active", metrics, (m) -> m.totals().requestsActive())
			.description("Requests being served now")
			.register(registry);
		FunctionCounter.builder("khamsin.bytes.received", metrics, (m) -> m.totals().bytesReceived())
			.description("Bytes read from clients")
			.baseUnit("bytes")
			.register(registry);
		FunctionCounter.builder("khamsin.bytes.sent", metrics, (m) -> m.totals().bytesSent())
			.description("Bytes written to clients")
			.baseUnit("bytes")
			.register(registry);
		metrics.addLatencyListener(new TimerFeed(registry, this.timerSettings));
		startDrainer();
	}

	private static void bindQuic(MeterRegistry registry, KhamsinMetrics metrics) {
		Gauge.builder("khamsin.quic.connections.active", metrics, (m) -> m.quicTotals().connectionsOpen())
			.description("HTTP/3 connections open now")
			.register(registry);
		Gauge.builder("khamsin.quic.streams.active", metrics, (m) -> m.quicTotals().streamsOpen())
			.description("HTTP/3 request streams open now")
			.register(registry);
		FunctionCounter.builder("khamsin.quic.retries", metrics, (m) -> m.quicTotals().retriesSent())
			.description("QUIC Retry packets sent: new clients asked to echo a token that proves their address")
			.register(registry);
		FunctionCounter.builder("khamsin.quic.tokens.rejected", metrics, (m) -> m.quicTotals().tokensRejected())
			.description("QUIC Initial packets dropped for a token that was forged, expired or issued to another address")
			.register(registry);
		FunctionCounter.builder("khamsin.quic.packets", metrics, (m) -> m.quicTotals().packetsSent())
			.description("QUIC packets of the HTTP/3 connections closed since start")
			.tag("direction", "sent")
			.register(registry);
		FunctionCounter.builder("khamsin.quic.packets", metrics, (m) -> m.quicTotals().packetsReceived())
			.description("QUIC packets of the HTTP/3 connections closed since start")
			.tag("direction", "received")
			.register(registry);
		FunctionCounter.builder("khamsin.quic.packets.lost", metrics, (m) -> m.quicTotals().packetsLost())
			.description("QUIC packets sent by the HTTP/3 connections closed since start that were lost")
			.register(registry);
	}

	private synchronized void startDrainer() {
		if (this.drainer != null) {
			return;
		}
		this.drainer = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "khamsin-metrics");
			thread.setDaemon(true);
			return thread;
		});
		long period = this.drainInterval.toMillis();
		this.drainer.scheduleWithFixedDelay(this::drain, period, period, TimeUnit.MILLISECONDS);
	}

	private void drain() {
		try {
			this.metrics.drain();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not publish khamsin's latencies to Micrometer", ex);
		}
	}

	/**
	 * Stop draining, after one last drain so that no recorded latency is lost.
	 */
	@Override
	public synchronized void close() {
		if (this.drainer != null) {
			this.drainer.shutdownNow();
			this.drainer = null;
			drain();
		}
	}

	/**
	 * The histogram of the {@code khamsin.requests} timer.
	 *
	 * @param percentileHistogram whether to publish a percentile histogram
	 * @param slo service level objectives, each published as a bucket
	 * @param minimumExpectedValue the smallest latency the buckets distinguish
	 * @param maximumExpectedValue the largest latency the buckets distinguish
	 */
	public record TimerSettings(boolean percentileHistogram, List<Duration> slo, Duration minimumExpectedValue,
			Duration maximumExpectedValue) {

		public TimerSettings {
			slo = List.copyOf(slo);
		}

	}

	/**
	 * Records the latencies of each drain into the timer of their tags, created on first use.
	 */
	private static final class TimerFeed implements LatencyListener {

		private final MeterRegistry registry;

		private final TimerSettings settings;

		private final ConcurrentHashMap<LatencyKey, Timer> timers = new ConcurrentHashMap<>();

		TimerFeed(MeterRegistry registry, TimerSettings settings) {
			this.registry = registry;
			this.settings = settings;
		}

		@Override
		public void onLatencies(LatencyKey key, Histogram latencies) {
			Timer timer = this.timers.computeIfAbsent(key, this::timer);
			for (HistogramIterationValue value : latencies.recordedValues()) {
				// The middle of the histogram's bucket, so that the timer's total is right within its precision.
				long nanos = latencies.medianEquivalentValue(value.getValueIteratedTo());
				for (long i = value.getCountAddedInThisIterationStep(); i > 0; i--) {
					timer.record(nanos, TimeUnit.NANOSECONDS);
				}
			}
		}

		private Timer timer(LatencyKey key) {
			return Timer.builder("khamsin.requests")
				.description("Requests served, from the first byte of the request to the last byte of the response")
				.tags(Tags.of("protocol", key.protocol().tag(), "status", key.status(), "route", key.route(), "path",
						key.path().tag()))
				.publishPercentileHistogram(this.settings.percentileHistogram())
				.serviceLevelObjectives(this.settings.slo().toArray(Duration[]::new))
				.minimumExpectedValue(this.settings.minimumExpectedValue())
				.maximumExpectedValue(this.settings.maximumExpectedValue())
				.register(this.registry);
		}

	}

}
