package io.khamsin.benchmark.scenario;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.os.ProcessTree;
import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;

/**
 * {@code spike}: a traffic spike of twice a target's capacity for 10 s, and how much of its capacity it still serves
 * fast. The route is the sample app's product page rendered on every request ({@value #RENDER_COST} of CPU on the
 * reactor thread, the page cache off), so that a request has a cost a refusal does not. Each round starts a fresh
 * process, warms it, measures its capacity (one core divided by the server's CPU time per answered request at
 * about half load, with no queue; a conservative figure, since a busier server spends less per request), then offers twice that rate, open loop, over {@value #CONNECTIONS} connections. The figure is the share of
 * the capacity answered 200 within 1 ms of each request's intended send time; beside it the refusals
 * ({@code 503}) and how fast they came. khamsin runs with {@code khamsin.overload.max-queue-delay} at
 * {@value #MAX_QUEUE_DELAY}; targets without admission control queue every request.
 */
final class SpikeScenario extends FreshProcessScenario {

	static final String RENDER_COST = "100us";

	static final String MAX_QUEUE_DELAY = "1ms";

	static final int CONNECTIONS = 64;

	private static final Duration SPIKE = Duration.ofSeconds(10);

	private static final long FAST_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	@Override
	public String name() {
		return "spike";
	}

	@Override
	public String unit() {
		return "%";
	}

	@Override
	public boolean higherIsBetter() {
		return true;
	}

	@Override
	public String headline() {
		return "% of capacity answered within 1 ms, spike of 2x";
	}

	@Override
	public String figure() {
		return String.format("GET /page/1 rendered each time (%s of CPU): twice the target's capacity for %d s, open "
				+ "loop on %d connections; the share of the capacity answered 200 within 1 ms (khamsin with "
				+ "khamsin.overload.max-queue-delay=%s)", RENDER_COST, SPIKE.toSeconds(), CONNECTIONS, MAX_QUEUE_DELAY);
	}

	@Override
	List<String> extraJvmFlags() {
		// System properties reach Spring Boot's environment; a target without khamsin ignores khamsin's.
		return List.of("-Dkhamsin.page-cache.enabled=false", "-Dsample.page.render-cost=" + RENDER_COST,
				"-Dkhamsin.overload.max-queue-delay=" + MAX_QUEUE_DELAY);
	}

	@Override
	Measurement measure(RunContext context, TargetProcess process, IntegrityCheck.Result check, double startMillis,
			int round) {
		InetSocketAddress address = process.address();
		RequestTemplate request = RequestTemplate.get(Route.PAGE.path(), -1);
		step(context, process, round, "warming up for 30 s");
		context.generator().run(LoadSpec.closedLoop(address, request, 2, Duration.ZERO, Duration.ofSeconds(30)));
		// Capacity: what the server core does at the server's CPU cost per answered request, measured at about half
		// of what two connections get in a closed loop: a load with no queue, where admission control refuses
		// nothing (a closed loop keeps a request waiting on every connection, and on io_uring a reactor's pass then
		// takes them all, so khamsin refuses some, and their cheapness would count in).
		LoadResult rough = context.generator().run(LoadSpec.closedLoop(address, request, 2, Duration.ofSeconds(1),
				Duration.ofSeconds(3)));
		double probeRate = Math.max(50, 0.5 * rough.completed() / (rough.windowNanos() / 1e9));
		ProcessTree tree = new ProcessTree(process.pid());
		boolean precise = ProcessTree.hasSchedstat();
		long cpuBefore = precise ? tree.cpuNanos() : tree.cpuTicks();
		LoadResult probe = context.generator().run(LoadSpec.openLoop(address, request, 16, probeRate, Duration.ZERO,
				Duration.ofSeconds(5)));
		long cpuUsed = (precise ? tree.cpuNanos() : tree.cpuTicks()) - cpuBefore;
		double cpuNanos = precise ? cpuUsed : cpuUsed * (1e9 / ProcessTree.TICKS_PER_SECOND);
		// Every CPU nanosecond is charged to the answered requests, refusals' included: a conservative capacity.
		long probed = Math.max(1, probe.completed());
		double capacity = probed / (cpuNanos / 1e9);
		double offered = 2 * capacity;
		step(context, process, round, String.format("%.0f us of CPU per request: capacity %,.0f req/s; offering "
				+ "%,.0f req/s for %d s", cpuNanos / probed / 1e3, capacity, offered, SPIKE.toSeconds()));
		LoadResult spike = context.generator().run(LoadSpec.openLoop(address, request, CONNECTIONS, offered,
				Duration.ZERO, SPIKE).withDrainTimeout(Duration.ofSeconds(30)));
		double seconds = spike.windowNanos() / 1e9;
		Histogram answered = spike.responseTime();
		long fast = answered.getCountBetweenValues(0, FAST_NANOS);
		Histogram refusals = spike.refusalTime();
		long refused = refusals.getTotalCount();
		double share = 100 * fast / (capacity * seconds);
		Map<String, Object> extras = new LinkedHashMap<>();
		extras.put("capacity_per_s", Math.round(capacity));
		extras.put("cpu_us_per_req", Math.round(cpuNanos / probed / 100) / 10.0);
		extras.put("probe_refused", probe.refusalTime().getTotalCount());
		extras.put("offered_per_s", Math.round(offered));
		extras.put("answered_200", answered.getTotalCount());
		extras.put("answered_200_within_1ms", fast);
		extras.put("pct_of_capacity_within_2ms",
				RateScenario.round1(100 * answered.getCountBetweenValues(0, 2 * FAST_NANOS) / (capacity * seconds)));
		extras.put("pct_of_capacity_within_5ms",
				RateScenario.round1(100 * answered.getCountBetweenValues(0, 5 * FAST_NANOS) / (capacity * seconds)));
		extras.put("p50_200_ms", millis(answered.getValueAtPercentile(50)));
		extras.put("p99_200_ms", millis(answered.getValueAtPercentile(99)));
		extras.put("refused_503", refused);
		extras.put("p99_503_ms", (refused > 0) ? millis(refusals.getValueAtPercentile(99))
				: "-");
		extras.put("other_errors", spike.errors() - refused);
		extras.put("first_error", (spike.firstError() != null) ? spike.firstError() : "");
		step(context, process, round, String.format("  %.1f%% of capacity within 1 ms; 200: %,d (p99 %.2f ms), "
				+ "503: %,d, other errors %,d", share, answered.getTotalCount(), answered.getValueAtPercentile(99) / 1e6,
				refused, spike.errors() - refused));
		String note = (spike.errors() - refused > 0) ? (spike.errors() - refused) + " requests failed otherwise" : "";
		return Measurement.of(RateScenario.round1(share), note, extras, extras);
	}

	/** @return nanoseconds as milliseconds with two decimals */
	private static double millis(long nanos) {
		return Math.round(nanos / 1e4) / 100.0;
	}

}
