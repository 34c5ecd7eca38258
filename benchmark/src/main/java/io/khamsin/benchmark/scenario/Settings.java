package io.khamsin.benchmark.scenario;

/**
 * How long and how hard a campaign measures.
 *
 * @param quick whether this is the quick check ({@code --quick}): shorter warm-up and trials
 * @param rounds measurement rounds per scenario and target
 * @param warmupSeconds the least warm-up of a JVM target before its first round (it goes on until it is steady)
 * @param warmupMaxSeconds the most warm-up of any target: one that is not steady by then is measured anyway, and
 * the report says so
 * @param trialSeconds the measured window of one rate-search trial
 * @param searchTrials trials of the first round's rate search
 * @param refineTrials trials of a later round's search near the previous answer
 * @param peakSeconds the closed-loop (wrk) peak run beside each open-loop figure
 * @param cpuRate the fixed rate of {@code cpu-fixed-rate}, requests per second
 * @param serverCore the core every target is pinned to
 * @param loadCore the core of the load (this process and wrk)
 */
public record Settings(boolean quick, int rounds, int warmupSeconds, int warmupMaxSeconds, double trialSeconds,
		int searchTrials, int refineTrials, int peakSeconds, int cpuRate, int serverCore, int loadCore) {

	/**
	 * A full campaign: a JVM target warms up for at least 60 s (a JVM on one core needs it) and until steady, at
	 * most 300 s; 10 s trials.
	 */
	public static Settings full(int rounds) {
		return new Settings(false, rounds, 60, 300, 10, 7, 3, 10, 5_000, 0, 1);
	}

	/**
	 * The quick check: fits {@code status} on the JVM targets and nginx, three rounds, in a few minutes; its
	 * 15 to 30 s warm-up is shorter than the 60 s a JVM on one core needs, which the report says.
	 */
	public static Settings quickCheck() {
		return new Settings(true, 3, 15, 30, 1.5, 5, 2, 3, 5_000, 0, 1);
	}

	public Settings withRounds(int rounds) {
		return new Settings(this.quick, rounds, this.warmupSeconds, this.warmupMaxSeconds, this.trialSeconds,
				this.searchTrials, this.refineTrials, this.peakSeconds, this.cpuRate, this.serverCore, this.loadCore);
	}

	/** These settings with {@code minimum} seconds of warm-up at least (and at most no less than that). */
	public Settings withWarmup(int minimum) {
		return new Settings(this.quick, this.rounds, minimum, Math.max(minimum, this.warmupMaxSeconds),
				this.trialSeconds, this.searchTrials, this.refineTrials, this.peakSeconds, this.cpuRate,
				this.serverCore, this.loadCore);
	}

	/** These settings with at most {@code maximum} seconds of warm-up (and at least no more than that). */
	public Settings withWarmupMax(int maximum) {
		return new Settings(this.quick, this.rounds, Math.min(this.warmupSeconds, maximum), maximum,
				this.trialSeconds, this.searchTrials, this.refineTrials, this.peakSeconds, this.cpuRate,
				this.serverCore, this.loadCore);
	}

	public Settings withTrialSeconds(double seconds) {
		return new Settings(this.quick, this.rounds, this.warmupSeconds, this.warmupMaxSeconds, seconds,
				this.searchTrials, this.refineTrials, this.peakSeconds, this.cpuRate, this.serverCore, this.loadCore);
	}

	public Settings withCpuRate(int rate) {
		return new Settings(this.quick, this.rounds, this.warmupSeconds, this.warmupMaxSeconds, this.trialSeconds,
				this.searchTrials, this.refineTrials, this.peakSeconds, rate, this.serverCore, this.loadCore);
	}

}
