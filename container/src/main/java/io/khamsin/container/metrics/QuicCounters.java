package io.khamsin.container.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The QUIC figures of one reactor: its open HTTP/3 connections and request streams, the Retry packets its UDP socket
 * sent and the address-validation tokens it refused (RFC 9000, section 8.1), and the packets its connections sent,
 * received and lost, added when each connection closes (quiche counts them per connection). Plain counters written
 * by the reactor's thread alone with release stores, as {@link ReactorMetrics} keeps its own; {@link KhamsinMetrics}
 * merges the reactors when read.
 */
public final class QuicCounters {

	private static final int CONNECTIONS_OPENED = 0;

	private static final int CONNECTIONS_CLOSED = 1;

	private static final int STREAMS_OPENED = 2;

	private static final int STREAMS_CLOSED = 3;

	private static final int RETRIES_SENT = 4;

	private static final int TOKENS_REJECTED = 5;

	private static final int PACKETS_SENT = 6;

	private static final int PACKETS_RECEIVED = 7;

	private static final int PACKETS_LOST = 8;

	private static final int COUNTERS = 9;

	// Padding on both sides keeps two reactors' counters off the same cache line.
	private static final int PAD = 8;

	private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

	private final String name;

	private final long[] counts = new long[PAD + COUNTERS + PAD];

	QuicCounters(String name) {
		this.name = name;
	}

	/** Count an HTTP/3 connection that opened. Call on the reactor's thread only, as every method below. */
	public void connectionOpened() {
		add(CONNECTIONS_OPENED, 1);
	}

	/** Count an HTTP/3 connection that closed. */
	public void connectionClosed() {
		add(CONNECTIONS_CLOSED, 1);
	}

	/**
	 * Add the packets of a connection that closed.
	 * @param sent the packets it sent
	 * @param received the packets it received
	 * @param lost the packets it sent that were lost
	 */
	public void packets(long sent, long received, long lost) {
		add(PACKETS_SENT, sent);
		add(PACKETS_RECEIVED, received);
		add(PACKETS_LOST, lost);
	}

	/** Count a Retry sent to a new client, which must echo its token to get a connection. */
	public void retrySent() {
		add(RETRIES_SENT, 1);
	}

	/** Count an Initial packet dropped for its token: forged, expired, or issued to another address. */
	public void tokenRejected() {
		add(TOKENS_REJECTED, 1);
	}

	/** Count a request stream that opened and is served. */
	public void streamOpened() {
		add(STREAMS_OPENED, 1);
	}

	/** Count a served request stream that closed. */
	public void streamClosed() {
		add(STREAMS_CLOSED, 1);
	}

	private void add(int counter, long delta) {
		int index = PAD + counter;
		COUNTS.setRelease(this.counts, index, this.counts[index] + delta);
	}

	private long get(int counter) {
		return (long) COUNTS.getAcquire(this.counts, PAD + counter);
	}

	QuicSnapshot snapshot() {
		long opened = get(CONNECTIONS_OPENED);
		long streams = get(STREAMS_OPENED);
		return new QuicSnapshot(this.name, Math.max(0, opened - get(CONNECTIONS_CLOSED)), opened,
				Math.max(0, streams - get(STREAMS_CLOSED)), streams, get(RETRIES_SENT), get(TOKENS_REJECTED),
				get(PACKETS_SENT), get(PACKETS_RECEIVED), get(PACKETS_LOST));
	}

}
