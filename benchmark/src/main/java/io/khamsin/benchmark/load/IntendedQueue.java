package io.khamsin.benchmark.load;

import java.util.Arrays;

/**
 * The intended send times of the requests waiting on one connection, oldest first. A keep-alive connection carries
 * one request at a time (no pipelining, as a browser or wrk2 does), so a request whose time has come while the
 * previous one is unanswered waits here, and its latency still starts at its intended time.
 */
final class IntendedQueue {

	private long[] times = new long[16];

	private int head;

	private int size;

	void add(long intendedNanos) {
		if (this.size == this.times.length) {
			long[] grown = new long[this.times.length * 2];
			for (int i = 0; i < this.size; i++) {
				grown[i] = this.times[(this.head + i) % this.times.length];
			}
			this.times = grown;
			this.head = 0;
		}
		this.times[(this.head + this.size) % this.times.length] = intendedNanos;
		this.size++;
	}

	long peek() {
		if (this.size == 0) {
			throw new IllegalStateException("no request waits");
		}
		return this.times[this.head];
	}

	long poll() {
		long value = peek();
		this.head = (this.head + 1) % this.times.length;
		this.size--;
		return value;
	}

	int size() {
		return this.size;
	}

	boolean isEmpty() {
		return this.size == 0;
	}

	void clear() {
		this.head = 0;
		this.size = 0;
		Arrays.fill(this.times, 0);
	}

}
