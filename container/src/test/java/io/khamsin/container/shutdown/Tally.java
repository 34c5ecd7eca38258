package io.khamsin.container.shutdown;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The outcomes of a load's requests, from any thread. A request closed without a response is held apart until the
 * end, when the server's record of the requests it read tells whether it was {@link Outcome#CLOSED_UNREAD} or
 * {@link Outcome#FAILED}; so is a request the client counted as refused, which must not be one the server read.
 */
final class Tally {

	private static final int FAILURES_KEPT = 20;

	private final Map<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);

	private final Set<Long> unanswered = ConcurrentHashMap.newKeySet();

	private final Map<Long, Outcome> refused = new ConcurrentHashMap<>();

	private final Queue<String> failures = new ConcurrentLinkedQueue<>();

	private final AtomicInteger failuresKept = new AtomicInteger();

	Tally() {
		for (Outcome outcome : Outcome.values()) {
			this.counts.put(outcome, new LongAdder());
		}
	}

	void completed() {
		this.counts.get(Outcome.COMPLETED).increment();
	}

	/**
	 * A request the client was told, or can tell, was not processed.
	 * @param id the request
	 * @param outcome how it was refused
	 */
	void refused(long id, Outcome outcome) {
		this.refused.put(id, outcome);
	}

	/**
	 * A request whose connection closed after it was written, with no byte of its response.
	 * @param id the request
	 */
	void unanswered(long id) {
		this.unanswered.add(id);
	}

	void failed(long id, String why) {
		this.counts.get(Outcome.FAILED).increment();
		if (this.failuresKept.incrementAndGet() <= FAILURES_KEPT) {
			this.failures.add("request " + id + ": " + why);
		}
	}

	/**
	 * Settle the requests held apart, once the load has ended.
	 * @param read the requests the server read
	 */
	void settle(Set<Long> read) {
		for (Long id : this.unanswered) {
			if (read.contains(id)) {
				failed(id, "the server read it and its connection closed with no response");
			}
			else {
				this.counts.get(Outcome.CLOSED_UNREAD).increment();
			}
		}
		this.unanswered.clear();
		this.refused.forEach((id, outcome) -> {
			if (read.contains(id)) {
				failed(id, "counted " + outcome + " by the client, but the server read it");
			}
			else {
				this.counts.get(outcome).increment();
			}
		});
		this.refused.clear();
	}

	long count(Outcome outcome) {
		return this.counts.get(outcome).sum();
	}

	long total() {
		return this.counts.values().stream().mapToLong(LongAdder::sum).sum() + this.unanswered.size()
				+ this.refused.size();
	}

	List<String> failures() {
		return new ArrayList<>(this.failures);
	}

	void addTo(Tally total) {
		for (Outcome outcome : Outcome.values()) {
			total.counts.get(outcome).add(count(outcome));
		}
		for (String failure : this.failures) {
			if (total.failuresKept.incrementAndGet() <= FAILURES_KEPT) {
				total.failures.add(failure);
			}
		}
	}

}
