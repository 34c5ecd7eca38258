package io.khamsin.benchmark.scenario;

import java.util.LinkedHashMap;
import java.util.Map;

import io.khamsin.benchmark.os.ProcessTree;
import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.TargetProcess;

/**
 * {@code memory-at-rest}: the proportional set size (PSS, shared pages split between their users) of the target's
 * process tree after start and one answered request, before any load; RSS beside it. Each round starts a fresh
 * process.
 */
final class MemoryAtRestScenario extends FreshProcessScenario {

	@Override
	public String name() {
		return "memory-at-rest";
	}

	@Override
	public String unit() {
		return "MB";
	}

	@Override
	public String figure() {
		return "PSS of the process tree after start and one answered request, before load (RSS beside)";
	}

	@Override
	Measurement measure(RunContext context, TargetProcess process, IntegrityCheck.Result check, double startMillis,
			int round) {
		sleep(context.settings().quick() ? 1000 : 3000);
		ProcessTree tree = new ProcessTree(process.pid());
		double pss = tree.pssKb() / 1024.0;
		double rss = tree.rssKb() / 1024.0;
		Map<String, Object> extras = new LinkedHashMap<>();
		extras.put("rss_mb", RateScenario.round1(rss));
		step(context, process, round, String.format("PSS %.1f MB, RSS %.1f MB", pss, rss));
		return Measurement.of(pss, "", extras, extras);
	}

}
