package io.khamsin.container.cache;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the misses of every key in a fixed space, for the admission threshold: a count-min sketch (four rows of
 * counters, a key's count is its smallest counter) whose counters are halved every {@code 10 x width} misses so
 * that old misses fade. A collision can only raise a count, so a key is admitted on its N-th miss or a little
 * earlier, never later; 4 x 65,536 counters take 1 MiB whatever the number of keys.
 */
final class MissSketch {

	private static final int ROWS = 4;

	private static final int WIDTH = 1 << 16;

	private static final long[] SEEDS = { 0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL, 0x165667B19E3779F9L,
			0xD6E8FEB86659FD93L };

	private static final VarHandle COUNTERS = MethodHandles.arrayElementVarHandle(int[].class);

	private final int[] counters = new int[ROWS * WIDTH];

	private final AtomicLong misses = new AtomicLong();

	/**
	 * Count a miss of a key.
	 * @param key the key
	 * @return the key's misses so far, this one included (an estimate, never below the truth since the last halving)
	 */
	int miss(String key) {
		long hash = key.hashCode() * 0x9E3779B97F4A7C15L;
		int min = Integer.MAX_VALUE;
		for (int row = 0; row < ROWS; row++) {
			int index = row * WIDTH + index(hash, row);
			int count = (int) COUNTERS.getAndAdd(this.counters, index, 1) + 1;
			min = Math.min(min, count);
		}
		if (this.misses.incrementAndGet() % (10L * WIDTH) == 0) {
			halve();
		}
		return min;
	}

	private static int index(long hash, int row) {
		long h = (hash + SEEDS[row]) * SEEDS[(row + 1) % ROWS];
		return (int) (h >>> 48) & (WIDTH - 1);
	}

	private void halve() {
		for (int i = 0; i < this.counters.length; i++) {
			COUNTERS.setRelease(this.counters, i, ((int) COUNTERS.getAcquire(this.counters, i)) >>> 1);
		}
	}

}
