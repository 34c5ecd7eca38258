package io.khamsin.container.guard;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many times each {@link Guard} tripped since the server started. Counting is lock-free and allocates
 * nothing.
 */
public final class GuardCounters {

	private static final Guard[] GUARDS = Guard.values();

	private final LongAdder[] counts = new LongAdder[GUARDS.length];

	public GuardCounters() {
		for (int i = 0; i < this.counts.length; i++) {
			this.counts[i] = new LongAdder();
		}
	}

	/**
	 * Count one event of a guard.
	 * @param guard the guard that tripped
	 */
	public void increment(Guard guard) {
		this.counts[guard.ordinal()].increment();
	}

	/**
	 * The count of one guard.
	 * @param guard the guard
	 * @return how many times it tripped
	 */
	public long count(Guard guard) {
		return this.counts[guard.ordinal()].sum();
	}

	/**
	 * A snapshot of every count.
	 * @return the counts by guard
	 */
	public Map<Guard, Long> snapshot() {
		Map<Guard, Long> snapshot = new EnumMap<>(Guard.class);
		for (Guard guard : GUARDS) {
			snapshot.put(guard, count(guard));
		}
		return snapshot;
	}

}
