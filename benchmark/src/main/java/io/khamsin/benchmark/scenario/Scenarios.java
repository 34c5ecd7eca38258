package io.khamsin.benchmark.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * The scenarios of this instrument by their stable names, in campaign order. Latency bounds: 1 ms for keep-alive
 * status, JSON and status over TLS (BENCHMARKING.md), 5 ms for a new connection per request; downloads, for which
 * BENCHMARKING.md sets none, use 5 ms (64 KiB) and 20 ms (1 MiB). TLS handshakes and HTTP/2 streams are closed-loop
 * rates, and so is HTTP/3.
 */
public final class Scenarios {

	private static final Map<String, Scenario> ALL = new LinkedHashMap<>();

	static {
		add(RateScenario.headline("status", Route.PLAINTEXT, 1, 64));
		add(RateScenario.headline("json", Route.JSON, 1, 64));
		add(new CpuFixedRateScenario());
		add(new RateScenario("new-connection", Route.PLAINTEXT, 5, 64, true));
		add(RateScenario.overTls("https", Route.PLAINTEXT, 1, 64));
		add(new HandshakeScenario());
		add(new H2StreamsScenario("h2-streams", Wire.H2C));
		add(new H2StreamsScenario("h2-streams-tls", Wire.H2));
		add(new H3StreamsScenario());
		add(new H3Ngtcp2Scenario());
		add(new RateScenario("download-64k", Route.FILE_64K, 5, 16, false));
		add(new RateScenario("download-1m", Route.FILE_1M, 20, 8, false));
		add(RateScenario.overTls("download-64k-tls", Route.FILE_64K, 5, 16));
		add(RateScenario.overTls("download-1m-tls", Route.FILE_1M, 20, 8));
		add(new CacheHitScenario());
		add(new IdleConnectionsScenario());
		add(new StartupScenario());
		add(new MemoryAtRestScenario());
		add(new SlowAttackersScenario());
		add(new SpikeScenario());
		add(new TlsAbuseScenario());
	}

	private Scenarios() {
	}

	private static void add(Scenario scenario) {
		ALL.put(scenario.name(), scenario);
	}

	/**
	 * @param scenario a scenario as measured
	 * @return the rates at which it compared every target at equal load, each by the prefix of its figures in a
	 * row's extras (e.g. {@code equal_load_50}), lowest first; empty when it did not
	 */
	public static Map<String, Double> equalLoad(Scenario scenario) {
		Map<String, Double> rates = new LinkedHashMap<>();
		double[] ladder = (scenario instanceof RateScenario rate) ? rate.ladder() : null;
		if (ladder != null) {
			for (int rung = 0; rung < ladder.length; rung++) {
				rates.put(RateScenario.rungKey(rung), ladder[rung]);
			}
		}
		return rates;
	}

	/** @return every scenario name, in campaign order */
	public static List<String> names() {
		return List.copyOf(ALL.keySet());
	}

	/**
	 * @return the scenario called {@code name}
	 * @throws IllegalArgumentException naming the known scenarios if there is none
	 */
	public static Scenario named(String name) {
		return named(name, 1);
	}

	/**
	 * The scenario called {@code name}, with {@code keepAliveBoundMillis} in place of the 1 ms bound of
	 * {@code status} and {@code json} ({@code --p99-bound-ms}: on a machine whose own tail is above 1 ms for every
	 * server of a kind, the bound that still separates them).
	 * @throws IllegalArgumentException naming the known scenarios if there is none
	 */
	public static Scenario named(String name, double keepAliveBoundMillis) {
		Scenario scenario = ALL.get(name);
		if (scenario == null) {
			throw new IllegalArgumentException("unknown scenario '" + name + "'; known: " + String.join(", ", ALL.keySet()));
		}
		if (scenario instanceof RateScenario rate && keepAliveBoundMillis != 1) {
			return rate.withBound(keepAliveBoundMillis);
		}
		return scenario;
	}

}
