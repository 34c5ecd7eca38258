package io.khamsin.container.http2.conformance;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.netty.handler.codec.http2.Http2Headers;

import io.khamsin.container.http2.conformance.H2Connection.Event;

/**
 * What a case expects the server to do next, judged as h2spec judges it. Each expectation waits up to a timeout and
 * passes over frames that may legitimately come first (SETTINGS, WINDOW_UPDATE, PING, responses on other streams);
 * a failure names what was expected and lists every frame the server sent meanwhile.
 * <p>
 * As in h2spec, a <em>connection error</em> passes on a GOAWAY with one of the expected codes or on the connection
 * closing, with or without a GOAWAY first (RFC 9113 section 5.4.1 says an endpoint SHOULD send GOAWAY, not MUST); a
 * <em>stream error</em> passes on a RST_STREAM for the stream with one of the codes, or on a connection error with
 * one of them, or on the connection closing. Stricter than h2spec, a GOAWAY or RST_STREAM with another code fails at
 * once instead of being passed over.
 */
final class H2Expectations {

	private final H2Connection connection;

	private final Duration timeout;

	private final List<String> seen = new ArrayList<>();

	private int notListed;

	H2Expectations(H2Connection connection, Duration timeout) {
		this.connection = connection;
		this.timeout = timeout;
	}

	/** A connection error (RFC 9113 section 5.4.1): GOAWAY with one of the codes, or the connection closed. */
	void connectionError(ErrorCode... codes) {
		String expected = "a connection error " + Arrays.toString(codes) + " (GOAWAY, or the connection closed)";
		await(expected, (event) -> {
			if (event.closed()) {
				return Verdict.PASS;
			}
			Frame frame = event.frame();
			if (frame.is(Frame.GOAWAY)) {
				return ErrorCode.matches(frame.errorCode(), codes) ? Verdict.PASS : Verdict.FAIL;
			}
			return Verdict.SKIP;
		});
	}

	/**
	 * A stream error on a stream (RFC 9113 section 5.4.2): RST_STREAM with one of the codes on it, or a connection
	 * error with one of them.
	 */
	void streamError(int streamId, ErrorCode... codes) {
		String expected = "a stream error " + Arrays.toString(codes) + " on stream " + streamId
				+ " (RST_STREAM, GOAWAY, or the connection closed)";
		await(expected, (event) -> {
			if (event.closed()) {
				return Verdict.PASS;
			}
			Frame frame = event.frame();
			if (frame.is(Frame.GOAWAY) || (frame.is(Frame.RST_STREAM) && frame.streamId() == streamId)) {
				return ErrorCode.matches(frame.errorCode(), codes) ? Verdict.PASS : Verdict.FAIL;
			}
			return Verdict.SKIP;
		});
	}

	/** A RST_STREAM frame with the code on the stream, and nothing else will do. */
	void rstStream(int streamId, ErrorCode code) {
		await("RST_STREAM " + code + " on stream " + streamId, (event) -> {
			if (event.closed()) {
				return Verdict.FAIL;
			}
			Frame frame = event.frame();
			if (frame.is(Frame.RST_STREAM) && frame.streamId() == streamId) {
				return ErrorCode.matches(frame.errorCode(), code) ? Verdict.PASS : Verdict.FAIL;
			}
			return frame.is(Frame.GOAWAY) ? Verdict.FAIL : Verdict.SKIP;
		});
	}

	/** A GOAWAY frame with the code, and a close without one will not do. */
	Frame goAway(ErrorCode... codes) {
		return await("GOAWAY " + Arrays.toString(codes), (event) -> {
			if (event.closed()) {
				return Verdict.FAIL;
			}
			Frame frame = event.frame();
			if (frame.is(Frame.GOAWAY)) {
				return (codes.length == 0 || ErrorCode.matches(frame.errorCode(), codes)) ? Verdict.PASS
						: Verdict.FAIL;
			}
			return Verdict.SKIP;
		}).frame();
	}

	/** The server closes the connection (a reset counts), whatever it sends first. */
	void connectionClose() {
		await("the connection closed", (event) -> event.closed() ? Verdict.PASS : Verdict.SKIP);
	}

	/** The first HEADERS frame on a stream: the head of a response. */
	Frame headers(int streamId) {
		return await("a HEADERS frame on stream " + streamId, (event) -> {
			Verdict fatal = fatalFor(event, streamId);
			if (fatal != null) {
				return fatal;
			}
			Frame frame = event.frame();
			return (frame.is(Frame.HEADERS) && frame.streamId() == streamId) ? Verdict.PASS : Verdict.SKIP;
		}).frame();
	}

	/** The first DATA frame on a stream. */
	Frame data(int streamId) {
		return await("a DATA frame on stream " + streamId, (event) -> {
			Verdict fatal = fatalFor(event, streamId);
			if (fatal != null) {
				return fatal;
			}
			Frame frame = event.frame();
			return (frame.is(Frame.DATA) && frame.streamId() == streamId) ? Verdict.PASS : Verdict.SKIP;
		}).frame();
	}

	/** A whole response on a stream: its final head, its data, and trailers if any, up to END_STREAM. */
	Response response(int streamId) {
		Http2Headers head = null;
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (true) {
			Frame frame = await("a response on stream " + streamId + " up to END_STREAM", (event) -> {
				Verdict fatal = fatalFor(event, streamId);
				if (fatal != null) {
					return fatal;
				}
				Frame candidate = event.frame();
				boolean onStream = candidate.streamId() == streamId;
				return (onStream && (candidate.is(Frame.HEADERS) || candidate.is(Frame.DATA))) ? Verdict.PASS
						: Verdict.SKIP;
			}).frame();
			if (frame.is(Frame.HEADERS)) {
				CharSequence status = (frame.headers() != null) ? frame.headers().status() : null;
				if (head == null && status != null && status.charAt(0) == '1') {
					continue;
				}
				if (head == null) {
					head = frame.headers();
				}
			}
			else {
				body.writeBytes(frame.data());
			}
			if (frame.endsStream()) {
				if (head == null || head.status() == null) {
					throw new AssertionError("The response on stream " + streamId + " has no :status: " + frame);
				}
				return new Response(Integer.parseInt(head.status().toString()), head, body.toByteArray());
			}
		}
	}

	/**
	 * A request the server will not take: a response with the status (such as 431), a RST_STREAM on the stream or a
	 * GOAWAY with one of the codes, or the connection closed.
	 */
	void refusal(int streamId, int status, ErrorCode... codes) {
		String expected = "a " + status + " response, or an error " + Arrays.toString(codes) + " on stream "
				+ streamId;
		await(expected, (event) -> {
			if (event.closed()) {
				return Verdict.PASS;
			}
			Frame frame = event.frame();
			if (frame.is(Frame.HEADERS) && frame.streamId() == streamId) {
				CharSequence actual = (frame.headers() != null) ? frame.headers().status() : null;
				return String.valueOf(status).contentEquals((actual != null) ? actual : "") ? Verdict.PASS
						: Verdict.FAIL;
			}
			if (frame.is(Frame.GOAWAY) || (frame.is(Frame.RST_STREAM) && frame.streamId() == streamId)) {
				return ErrorCode.matches(frame.errorCode(), codes) ? Verdict.PASS : Verdict.FAIL;
			}
			return Verdict.SKIP;
		});
	}

	/**
	 * The answers to {@code streams} requests opened at once, client streams 1, 3, 5...: those from
	 * {@code firstOverLimit} on must be refused (RST_STREAM with one of the codes), or the connection ended with
	 * ENHANCE_YOUR_CALM or one of the codes; no more responses may start than streams below the limit.
	 * @return how many streams were refused, all those still unanswered when the connection ended included
	 */
	int streamsRefused(int streams, int firstOverLimit, ErrorCode... codes) {
		int overLimit = streams - (firstOverLimit - 1) / 2;
		int[] refused = new int[1];
		int[] started = new int[1];
		String expected = overLimit + " streams refused with " + Arrays.toString(codes);
		await(expected, (event) -> {
				if (event.closed()) {
					refused[0] = overLimit;
					return Verdict.PASS;
				}
				Frame frame = event.frame();
				if (frame.is(Frame.GOAWAY)) {
					refused[0] = overLimit;
					return (ErrorCode.matches(frame.errorCode(), codes)
							|| ErrorCode.matches(frame.errorCode(), ErrorCode.ENHANCE_YOUR_CALM)) ? Verdict.PASS
									: Verdict.FAIL;
				}
				if (frame.is(Frame.HEADERS)) {
					started[0]++;
				}
				if (frame.is(Frame.RST_STREAM) && frame.streamId() >= firstOverLimit
						&& ErrorCode.matches(frame.errorCode(), codes)) {
					refused[0]++;
				}
				return (refused[0] >= overLimit) ? Verdict.PASS : Verdict.SKIP;
			});
		if (started[0] > (firstOverLimit - 1) / 2) {
			throw new AssertionError("The server started " + started[0] + " responses with a limit of "
					+ (firstOverLimit - 1) / 2 + " concurrent streams");
		}
		return refused[0];
	}

	/** A SETTINGS frame with ACK. */
	void settingsAck() {
		await("SETTINGS with ACK", (event) -> {
			if (event.closed()) {
				return Verdict.FAIL;
			}
			Frame frame = event.frame();
			return (frame.is(Frame.SETTINGS) && frame.isAck()) ? Verdict.PASS
					: frame.is(Frame.GOAWAY) ? Verdict.FAIL : Verdict.SKIP;
		});
	}

	/** The acknowledgement of a PING: the first PING with ACK must carry the same opaque data. */
	void pingAck(byte[] opaque) {
		await("PING with ACK and opaque data " + Arrays.toString(opaque), (event) -> {
			if (event.closed()) {
				return Verdict.FAIL;
			}
			return pingVerdict(event.frame(), opaque);
		});
	}

	/** The acknowledgement of a PING, or the connection closed (for a server that closes after a GOAWAY). */
	void pingAckOrClose(byte[] opaque) {
		await("PING with ACK and opaque data " + Arrays.toString(opaque) + ", or the connection closed",
				(event) -> event.closed() ? Verdict.PASS : pingVerdict(event.frame(), opaque));
	}

	/**
	 * The acknowledgement of a PING, or the server ending the connection: a GOAWAY with an error, or a close (for a
	 * server whose limit stopped an attack whose frames had all been sent before its GOAWAY arrived).
	 */
	void pingAckOrConnectionEnd(byte[] opaque) {
		await("PING with ACK and opaque data " + Arrays.toString(opaque) + ", or the server ending the connection",
				(event) -> {
					if (event.closed() || (event.frame().is(Frame.GOAWAY) && event.frame().errorCode() != 0)) {
						return Verdict.PASS;
					}
					return pingVerdict(event.frame(), opaque);
				});
	}

	private static Verdict pingVerdict(Frame frame, byte[] opaque) {
		if (frame.is(Frame.PING) && frame.isAck()) {
			return Arrays.equals(frame.payload(), opaque) ? Verdict.PASS : Verdict.FAIL;
		}
		return frame.is(Frame.GOAWAY) ? Verdict.FAIL : Verdict.SKIP;
	}

	/** What rules out a frame on a stream coming: the connection closed or going away, or the stream reset. */
	private static Verdict fatalFor(Event event, int streamId) {
		if (event.closed()) {
			return Verdict.FAIL;
		}
		Frame frame = event.frame();
		if (frame.is(Frame.GOAWAY) && (frame.errorCode() != 0 || frame.lastStreamId() < streamId)) {
			return Verdict.FAIL;
		}
		if (frame.is(Frame.RST_STREAM) && frame.streamId() == streamId) {
			return Verdict.FAIL;
		}
		return null;
	}

	private Event await(String expected, Judge judge) {
		long deadline = System.nanoTime() + this.timeout.toNanos();
		while (true) {
			long left = deadline - System.nanoTime();
			Event event = (left > 0) ? this.connection.next(Duration.ofNanos(left)) : null;
			if (event == null) {
				throw failure(expected, "then nothing within " + this.timeout.toMillis() + " ms");
			}
			if (event.problem() != null && !event.closed()) {
				throw failure(expected, "then " + event);
			}
			Verdict verdict = judge.judge(event);
			if (verdict == Verdict.PASS) {
				return event;
			}
			if (verdict == Verdict.FAIL) {
				throw failure(expected, "then " + event);
			}
			if (this.seen.size() < 24) {
				this.seen.add(event.toString());
			}
			else {
				this.notListed++;
			}
		}
	}

	private AssertionError failure(String expected, String end) {
		String sent = this.seen.isEmpty() ? "nothing" : String.join(", ", this.seen);
		if (this.notListed > 0) {
			sent += " and " + this.notListed + " more frames";
		}
		return new AssertionError("Expected " + expected + "; the server sent " + sent + ", " + end);
	}

	private enum Verdict {

		PASS, FAIL, SKIP

	}

	@FunctionalInterface
	private interface Judge {

		Verdict judge(Event event);

	}

	/**
	 * A response as the client read it.
	 *
	 * @param status the final status
	 * @param headers the final head's fields
	 * @param body the data frames' data, padding removed
	 */
	record Response(int status, Http2Headers headers, byte[] body) {
	}

}
