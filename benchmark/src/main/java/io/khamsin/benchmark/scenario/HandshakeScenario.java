package io.khamsin.benchmark.scenario;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.load.ClientTls;
import io.khamsin.benchmark.load.LoadResult;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.os.CoreUsage;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

/**
 * {@code tls-handshakes}: new TLS 1.3 connections per second, each carrying one status request, closed loop with
 * {@link #CONNECTIONS} connections open at once, each replaced by a new one when answered. Twice per round: with
 * full handshakes (the client keeps no session), the figure; and resumed (the client offers the ticket of an
 * earlier connection), beside it, with the share of handshakes the client saw resumed. The certificate is RSA 2048,
 * so that a full handshake costs the server its signature; a resumed one costs both sides about the same, so the
 * load core's utilisation goes beside it.
 */
final class HandshakeScenario implements Scenario {

	static final int CONNECTIONS = 32;

	@Override
	public String name() {
		return "tls-handshakes";
	}

	@Override
	public String unit() {
		return "handshakes/s";
	}

	@Override
	public boolean higherIsBetter() {
		return true;
	}

	@Override
	public String figure() {
		return "new TLS 1.3 connections per second, one GET /plaintext each, " + CONNECTIONS + " at once (closed loop, "
				+ "this instrument's generator on " + ClientTls.provider() + "): full handshakes (RSA 2048); resumed "
				+ "ones beside (resumed per s, resumed pct as the client saw them)";
	}

	@Override
	public Wire wire() {
		return Wire.HTTPS;
	}

	@Override
	public List<Route> routes() {
		return List.of(Route.PLAINTEXT);
	}

	private static LoadResult run(RunContext context, RunningTarget target, ClientTls tls, double seconds) {
		RequestTemplate request = new RequestTemplate("GET", Route.PLAINTEXT.path(), Map.of(), new byte[0], 200,
				target.bodyLength(Route.PLAINTEXT));
		return context.generator().run(LoadSpec.connectionPerRequestClosedLoop(target.process().address(), request,
				CONNECTIONS, Duration.ofSeconds(1), Duration.ofMillis((long) (seconds * 1000)))
			.withDrainTimeout(Duration.ofSeconds(2))
			.withTls(tls));
	}

	@Override
	public WarmUp warmUp(RunContext context, RunningTarget target) {
		Settings settings = context.settings();
		WarmUp.Rule rule = WarmUp.Rule.of(settings, target.process().spec().jvm());
		WarmUp warmUp = rule.run((seconds) -> {
			LoadResult result = run(context, target, ClientTls.fullHandshakes(), seconds);
			context.progress().step(target.name(), 0, settings.rounds(), String.format("  %,.0f handshakes/s, %d errors",
					result.achievedRate(), result.errors()));
			return result.achievedRate();
		});
		// Resumption has its own code paths on both sides: run them too before anything is timed.
		run(context, target, ClientTls.resuming(), settings.quick() ? 3 : 10);
		context.progress().step(target.name(), 0, settings.rounds(), "warm-up: " + warmUp.describe());
		return warmUp;
	}

	@Override
	public Measurement measure(RunContext context, RunningTarget target, int round, Measurement previous) {
		Settings settings = context.settings();
		Map<String, Object> extras = new LinkedHashMap<>();
		CoreUsage fullLoad = CoreUsage.start(settings.loadCore());
		LoadResult full = run(context, target, ClientTls.fullHandshakes(), settings.peakSeconds());
		extras.put("load_cpu_pct", RateScenario.round1(fullLoad.busyPercent()));
		CoreUsage resumedLoad = CoreUsage.start(settings.loadCore());
		LoadResult resumed = run(context, target, ClientTls.resuming(), settings.peakSeconds());
		extras.put("resumed_per_s", Math.round(resumed.achievedRate()));
		double resumedPct = (resumed.handshakes() > 0) ? 100.0 * resumed.resumedHandshakes() / resumed.handshakes() : 0;
		extras.put("resumed_pct", RateScenario.round1(resumedPct));
		extras.put("resumed_load_cpu_pct", RateScenario.round1(resumedLoad.busyPercent()));
		double fullReusedPct = (full.handshakes() > 0) ? 100.0 * full.resumedHandshakes() / full.handshakes() : 0;
		StringBuilder note = new StringBuilder();
		if (full.errors() > 0 || resumed.errors() > 0) {
			note.append(full.errors() + resumed.errors()).append(" errors (first: ")
				.append((full.firstError() != null) ? full.firstError() : resumed.firstError()).append(")");
		}
		if (fullReusedPct > 0) {
			note.append((note.length() > 0) ? "; " : "").append("the full run resumed ").append(fullReusedPct)
				.append("% of its handshakes");
		}
		if (resumedPct < 90) {
			note.append((note.length() > 0) ? "; " : "").append(String.format("only %.0f%% of the resumed run's "
					+ "handshakes were resumed", resumedPct));
		}
		context.progress().step(target.name(), round, settings.rounds(), String.format(
				"%,.0f full handshakes/s (load core %.0f%%), %,.0f resumed/s (%.0f%% resumed, load core %.0f%%)",
				full.achievedRate(), fullLoad.busyPercent(), resumed.achievedRate(), resumedPct,
				resumedLoad.busyPercent()));
		return new Measurement(full.errors() > 0 ? 0 : full.achievedRate(), full.p50Millis(), full.p99Millis(),
				note.toString(), extras, Map.of("full", full.describe(), "resumed", resumed.describe()));
	}

}
