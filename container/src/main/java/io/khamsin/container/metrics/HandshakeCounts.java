package io.khamsin.container.metrics;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Handshakes counted on one reactor, or on all of them.
 *
 * @param reactor the reactor's name, or {@code "total"}
 * @param full handshakes that ran in full (a new session)
 * @param resumed handshakes that resumed a session (a ticket or a cached session id)
 * @param failures handshakes that failed, by reason; every reason is present
 * @param closedBeforeHello connections that closed before they sent a byte (TCP health checks, port scans): no
 * handshake, so neither made nor failed
 */
public record HandshakeCounts(String reactor, long full, long resumed, Map<HandshakeFailure, Long> failures,
		long closedBeforeHello) {

	public HandshakeCounts {
		EnumMap<HandshakeFailure, Long> all = new EnumMap<>(HandshakeFailure.class);
		for (HandshakeFailure reason : HandshakeFailure.values()) {
			all.put(reason, 0L);
		}
		if (failures != null) {
			all.putAll(failures);
		}
		failures = Collections.unmodifiableMap(all);
	}

	static HandshakeCounts empty(String reactor) {
		return new HandshakeCounts(reactor, 0, 0, null, 0);
	}

	static HandshakeCounts of(String reactor, long full, long resumed, long[] failures, long closedBeforeHello) {
		EnumMap<HandshakeFailure, Long> map = new EnumMap<>(HandshakeFailure.class);
		for (HandshakeFailure reason : HandshakeFailure.values()) {
			map.put(reason, failures[reason.ordinal()]);
		}
		return new HandshakeCounts(reactor, full, resumed, map, closedBeforeHello);
	}

	/**
	 * @param reason a reason
	 * @return the failures for that reason
	 */
	public long failed(HandshakeFailure reason) {
		return this.failures.get(reason);
	}

	/** @return every failed handshake */
	public long failedTotal() {
		return this.failures.values().stream().mapToLong(Long::longValue).sum();
	}

	HandshakeCounts plus(HandshakeCounts other) {
		EnumMap<HandshakeFailure, Long> sum = new EnumMap<>(HandshakeFailure.class);
		for (HandshakeFailure reason : HandshakeFailure.values()) {
			sum.put(reason, failed(reason) + other.failed(reason));
		}
		return new HandshakeCounts(this.reactor, this.full + other.full, this.resumed + other.resumed, sum,
				this.closedBeforeHello + other.closedBeforeHello);
	}

}
