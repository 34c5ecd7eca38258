package io.khamsin.benchmark.scenario;

/**
 * How long and how hard a campaign measures.
 *
 * @param quick whether this is the quick check ({@code --quick}): shorter warm-up and trials
 * @param rounds measurement rounds per scenario and target
 * @param warmupSeconds closed-loop load on each JVM target before its first round
 * @param trialSeconds the measured window of one rate-search trial
 * @param searchTrials trials of the first round's rate search
 * @param refineTrials trials of a later round's search near the previous answer
 * @param peakSeconds the closed-loop (wrk) peak run beside each open-loop figure
 * @param cpuRate the fixed rate of {@code cpu-fixed-rate}, requests per second
 * @param serverCore the core every target is pinned to
 * @param loadCore the core of the load (this process and wrk)
 */
public record Settings(boolean quick, int rounds, int warmupSeconds, double trialSeconds, int searchTrials,
		int refineTrials, int peakSeconds, int cpuRate, int serverCore, int loadCore) {

	/** A full campaign: 60 s warm-up (a JVM on one core needs it), 10 s trials. */
	public static Settings full(int rounds) {
		return new Settings(false, rounds, 60, 10, 7, 3, 10, 5_000, 0, 1);
	}

	/**
	 * The quick check: fits {@code status} on six JVM targets and nginx, three rounds, in under six minutes; the
	 * 15 s warm-up is shorter than the 60 s a JVM on one core needs, which the report says.
	 */
	public static Settings quickCheck() {
		return new Settings(true, 3, 15, 1.5, 5, 2, 3, 5_000, 0, 1);
	}

	public Settings withRounds(int rounds) {
		return new Settings(this.quick, rounds, this.warmupSeconds, this.trialSeconds, this.searchTrials,
				this.refineTrials, this.peakSeconds, this.cpuRate, this.serverCore, this.loadCore);
	}

}
