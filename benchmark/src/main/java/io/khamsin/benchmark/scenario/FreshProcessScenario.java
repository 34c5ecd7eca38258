package io.khamsin.benchmark.scenario;

import java.util.List;

import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;

/**
 * A scenario that starts a fresh process per target and round ({@code startup}, {@code memory-at-rest},
 * {@code idle-10k}): launch pinned to the server core, wait for the first answered {@code GET /plaintext}, check
 * that answer, measure, stop. Its figures are costs, so lower is better.
 */
abstract class FreshProcessScenario implements Scenario {

	@Override
	public boolean higherIsBetter() {
		return false;
	}

	@Override
	public final List<Route> routes() {
		return List.of(Route.PLAINTEXT);
	}

	@Override
	public final boolean restartsPerRound() {
		return true;
	}

	/** @return the JVM flags this scenario adds to the common ones (e.g. native memory tracking) */
	List<String> extraJvmFlags() {
		return List.of();
	}

	@Override
	public final Measurement measureFresh(RunContext context, TargetSpec target, int round) {
		try (TargetProcess process = context.launch(target, wire(), extraJvmFlags())) {
			double startMillis = process.awaitFirstAnswer(120);
			IntegrityCheck.Result check = new IntegrityCheck().check(process.address(), Route.PLAINTEXT, wire());
			if (!check.passed()) {
				throw new IllegalStateException(check.reason());
			}
			return measure(context, process, check, startMillis, round);
		}
	}

	/**
	 * Measure a process that has just answered its first request correctly.
	 * @param check the integrity check of that answer (its body length, for the load's request template)
	 * @param startMillis milliseconds from process start to the first answer
	 */
	abstract Measurement measure(RunContext context, TargetProcess process, IntegrityCheck.Result check,
			double startMillis, int round);

	/** Report a step of {@code process}'s round on the display. */
	static void step(RunContext context, TargetProcess process, int round, String message) {
		context.progress().step(process.spec().name(), round, context.settings().rounds(), message);
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
	}

}
