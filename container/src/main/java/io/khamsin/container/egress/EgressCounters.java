package io.khamsin.container.egress;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many file bodies left by each {@link EgressReason} since the server started. Counting is lock-free and
 * allocates nothing.
 */
public final class EgressCounters {

	private static final EgressReason[] REASONS = EgressReason.values();

	private final LongAdder[] counts = new LongAdder[REASONS.length];

	public EgressCounters() {
		for (int i = 0; i < this.counts.length; i++) {
			this.counts[i] = new LongAdder();
		}
	}

	/**
	 * Count a file body that leaves for a reason.
	 * @param reason the reason
	 */
	public void record(EgressReason reason) {
		this.counts[reason.ordinal()].increment();
	}

	/**
	 * @param reason the reason
	 * @return how many file bodies left for it
	 */
	public long count(EgressReason reason) {
		return this.counts[reason.ordinal()].sum();
	}

	/** @return every count, by reason */
	public Map<EgressReason, Long> snapshot() {
		Map<EgressReason, Long> snapshot = new EnumMap<>(EgressReason.class);
		for (EgressReason reason : REASONS) {
			snapshot.put(reason, count(reason));
		}
		return snapshot;
	}

}
