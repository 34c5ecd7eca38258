package io.khamsin.container.http2.conformance;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.Nested;

import static io.khamsin.container.http2.conformance.ErrorCode.CANCEL;
import static io.khamsin.container.http2.conformance.ErrorCode.COMPRESSION_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.ENHANCE_YOUR_CALM;
import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.REFUSED_STREAM;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_INITIAL_WINDOW_SIZE;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_MAX_CONCURRENT_STREAMS;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_MAX_HEADER_LIST_SIZE;
import static io.khamsin.container.http2.conformance.H2Connection.encodeFrame;
import static io.khamsin.container.http2.conformance.H2Connection.int32;
import static io.khamsin.container.http2.conformance.Payloads.dummyHeaders;
import static io.khamsin.container.http2.conformance.Payloads.opaque;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Attacks that h2spec does not try, each on one connection: the server must end it (GOAWAY with ENHANCE_YOUR_CALM,
 * or the code RFC 9113 gives, or at least a close) well before the attacker is done, and a fresh connection must
 * still get a 200 afterwards.
 */
class AbuseTests {

	/** Time enough for the attacks on a loaded machine; the reference ends each in well under a second. */
	static final Duration ATTACK_TIME = Duration.ofSeconds(20);

	@Nested
	@Section(key = "abuse", number = "1", title = "Rapid Reset (CVE-2023-44487)")
	class RapidReset {

		@ConformanceCase("RFC 9113 §10.5, CVE-2023-44487")
		void streamsOpenedAndResetAtOnceAreAnsweredWithEnhanceYourCalm(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").bytes();
			Flood.Result result = Flood.of(connection, (i) -> {
				int streamId = 1 + 2 * i;
				return concat(encodeFrame(Frame.HEADERS, Frame.FLAG_END_HEADERS | Frame.FLAG_END_STREAM, streamId,
						block), encodeFrame(Frame.RST_STREAM, 0, streamId, int32(CANCEL.code())));
			}).run(100_000, ATTACK_TIME);
			assertStoppedByServer(result);
			connection.expect().connectionError(ENHANCE_YOUR_CALM);
			peer.stillServes();
		}

		@ConformanceCase("RFC 9113 §10.5, CVE-2025-8671")
		void streamsTheServerIsMadeToResetAreAnsweredWithEnhanceYourCalm(Peer peer) throws IOException {
			// "MadeYouReset": each stream gets a WINDOW_UPDATE of 0, a stream error the server answers with a reset.
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").bytes();
			Flood.Result result = Flood.of(connection, (i) -> {
				int streamId = 1 + 2 * i;
				return concat(encodeFrame(Frame.HEADERS, Frame.FLAG_END_HEADERS, streamId, block),
						encodeFrame(Frame.WINDOW_UPDATE, 0, streamId, int32(0)));
			}).run(100_000, ATTACK_TIME);
			assertStoppedByServer(result);
			connection.expect().connectionError(ENHANCE_YOUR_CALM);
			peer.stillServes();
		}

	}

	@Nested
	@Section(key = "abuse", number = "2", title = "CONTINUATION Flood (CVE-2024-27316)")
	class ContinuationFlood {

		@ConformanceCase("RFC 9113 §10.5, CVE-2024-27316")
		void endlessEmptyContinuationFramesAreAnsweredWithAConnectionError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), true, false);
			Flood.Result result = Flood.of(connection,
					(i) -> encodeFrame(Frame.CONTINUATION, 0, 1, new byte[0])).run(1_000_000, ATTACK_TIME);
			assertStoppedByServer(result);
			connection.expect().connectionError(ENHANCE_YOUR_CALM, PROTOCOL_ERROR);
			peer.stillServes();
		}

		@ConformanceCase("RFC 9113 §10.5.1, CVE-2024-27316")
		void continuationFramesBeyondTheHeaderListLimitAreAnsweredWithAConnectionError(Peer peer)
				throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), true, false);
			byte[] fields = dummyHeaders(4, 4_000);
			Flood.Result result = Flood.of(connection, (i) -> encodeFrame(Frame.CONTINUATION, 0, 1, fields))
				.run(4_096, ATTACK_TIME);
			assertStoppedByServer(result);
			// Bytes sent, not bytes the server read: the client's send buffer and the server's receive buffer (each
			// grown by the kernel up to megabytes on loopback) hold some of them. 4.3 MiB was seen on a busy machine
			// against a limit of a few header lists; a server that kept taking would take all 65 MB of the attack.
			assertThat((long) result.unitsSent() * fields.length).as("header bytes sent before the server reacted")
				.isLessThan(16L << 20);
			connection.expect().connectionError(ENHANCE_YOUR_CALM, PROTOCOL_ERROR, COMPRESSION_ERROR);
			peer.stillServes();
		}

	}

	@Nested
	@Section(key = "abuse", number = "3", title = "SETTINGS and PING Floods")
	class ControlFrameFloods {

		@ConformanceCase("RFC 9113 §10.5")
		void settingsFramesSentFasterThanTheirAcknowledgementsAreReadEndTheConnection(Peer peer)
				throws IOException {
			controlFramesWhoseAnswersAreNotRead(peer, encodeFrame(Frame.SETTINGS, 0, 0, new byte[0]));
		}

		@ConformanceCase("RFC 9113 §10.5")
		void pingFramesSentFasterThanTheirAcknowledgementsAreReadEndTheConnection(Peer peer) throws IOException {
			controlFramesWhoseAnswersAreNotRead(peer, encodeFrame(Frame.PING, 0, 0, opaque("flood")));
		}

		private void controlFramesWhoseAnswersAreNotRead(Peer peer, byte[] frame) throws IOException {
			// A small receive buffer and no reading: the server's acknowledgements back up into its own memory.
			H2Connection connection = peer.connect(4096);
			connection.send(H2Connection.PREFACE).settings();
			Flood.Result result = Flood.of(connection, (i) -> frame).run(4_000_000, ATTACK_TIME);
			assertStoppedByServer(result);
			connection.expect().connectionError(ENHANCE_YOUR_CALM);
			peer.stillServes();
		}

	}

	@Nested
	@Section(key = "abuse", number = "4", title = "Empty DATA Frames")
	class EmptyDataFrames {

		@ConformanceCase("RFC 9113 §10.5")
		void endlessEmptyDataFramesAreAnsweredWithEnhanceYourCalm(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), false, true);
			Flood.Result result = Flood.of(connection, (i) -> encodeFrame(Frame.DATA, 0, 1, new byte[0]))
				.run(1_000_000, ATTACK_TIME);
			assertStoppedByServer(result);
			connection.expect().connectionError(ENHANCE_YOUR_CALM);
			peer.stillServes();
		}

	}

	@Nested
	@Section(key = "abuse", number = "5", title = "WINDOW_UPDATE Abuse")
	class WindowUpdateAbuse {

		@ConformanceCase("RFC 9113 §10.5")
		void aFloodOfTinyWindowUpdatesLeavesTheServerResponsive(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			Flood.Result result = Flood.of(connection, (i) -> encodeFrame(Frame.WINDOW_UPDATE, 0, 0, int32(1)))
				.run(50_000, ATTACK_TIME);
			if (!result.stoppedByServer() && !closedAfterTheFlood(connection)) {
				// A server that takes the flood must still answer on the same connection once it has read it; one
				// whose limit ended the connection may have done so only after the flood's last frames were sent.
				connection.expectWithin(ATTACK_TIME).pingAckOrConnectionEnd(opaque("after"));
			}
			peer.stillServes();
		}

		/**
		 * Send a PING after the flood.
		 * @return whether the connection had been closed by the server
		 */
		private boolean closedAfterTheFlood(H2Connection connection) {
			try {
				connection.ping(false, opaque("after"));
				return false;
			}
			catch (IOException closed) {
				return true;
			}
		}

		@ConformanceCase("RFC 9113 §10.5")
		@Requires(Capability.WINDOW_UPDATE_FLOOD_LIMIT)
		void aFloodOfTinyWindowUpdatesIsAnsweredWithEnhanceYourCalm(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			Flood.Result result = Flood.of(connection, (i) -> encodeFrame(Frame.WINDOW_UPDATE, 0, 0, int32(1)))
				.run(200_000, ATTACK_TIME);
			assertStoppedByServer(result);
			connection.expect().connectionError(ENHANCE_YOUR_CALM);
			peer.stillServes();
		}

		@ConformanceCase("RFC 9113 §6.9.1")
		void streamWindowsOverflowedOneAfterAnotherAreAnsweredWithEnhanceYourCalm(Peer peer) throws IOException {
			// Each stream's window of 65,535 overflows: a stream error the server answers with a reset.
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").bytes();
			Flood.Result result = Flood.of(connection, (i) -> {
				int streamId = 1 + 2 * i;
				return concat(encodeFrame(Frame.HEADERS, Frame.FLAG_END_HEADERS, streamId, block),
						encodeFrame(Frame.WINDOW_UPDATE, 0, streamId, int32(Http2FlowControlTests.MAX_WINDOW)));
			}).run(100_000, ATTACK_TIME);
			assertStoppedByServer(result);
			connection.expect().connectionError(ENHANCE_YOUR_CALM);
			peer.stillServes();
		}

	}

	@Nested
	@Section(key = "abuse", number = "6", title = "Oversized Header Lists")
	class OversizedHeaderLists {

		@ConformanceCase("RFC 9113 §10.5.1")
		void aHeaderListLargerThanAdvertisedIsRefusedWithoutHarm(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			Long limit = connection.serverSettings().get(SETTINGS_MAX_HEADER_LIST_SIZE);
			assertThat(limit).as("SETTINGS_MAX_HEADER_LIST_SIZE in the server's preface").isNotNull();
			int fields = (int) (limit / 1000) + 2;
			byte[] block = connection.requestBlock("GET").raw(dummyHeaders(fields, 1000)).bytes();
			int frameSize = connection.serverMaxFrameSize();
			for (int at = 0; at < block.length; at += frameSize) {
				byte[] fragment = Arrays.copyOfRange(block, at, Math.min(block.length, at + frameSize));
				boolean last = at + frameSize >= block.length;
				if (at == 0) {
					connection.headers(1, fragment, true, last);
				}
				else {
					connection.continuation(1, fragment, last);
				}
			}
			connection.expect().refusal(1, 431, REFUSED_STREAM, PROTOCOL_ERROR, ENHANCE_YOUR_CALM);
			peer.stillServes();
		}

	}

	@Nested
	@Section(key = "abuse", number = "7", title = "Too Many Streams")
	class TooManyStreams {

		@ConformanceCase("RFC 9113 §5.1.2")
		void streamsFarBeyondTheConcurrencyLimitAreRefusedAndTheRestServed(Peer peer) throws IOException {
			H2Connection connection = peer.handshake(SETTINGS_INITIAL_WINDOW_SIZE, 0);
			Long max = connection.serverSettings().get(SETTINGS_MAX_CONCURRENT_STREAMS);
			assertThat(max).as("SETTINGS_MAX_CONCURRENT_STREAMS in the server's preface").isNotNull();
			byte[] block = connection.requestBlock("GET").bytes();
			int streams = (int) (max * 10);
			Flood.of(connection, (i) -> encodeFrame(Frame.HEADERS, Frame.FLAG_END_HEADERS | Frame.FLAG_END_STREAM,
					1 + 2 * i, block)).run(streams, ATTACK_TIME);
			// With a zero window no response can finish, so no more than the limit may have been taken on.
			int refused = connection.expect().streamsRefused(streams, 1 + 2 * (int) (long) max, REFUSED_STREAM,
					PROTOCOL_ERROR);
			assertThat(refused).as("streams refused, of %s over the limit", streams - max).isPositive();
			peer.stillServes();
		}

	}

	static void assertStoppedByServer(Flood.Result result) {
		assertThat(result.stoppedByServer()).as("the server ended the attack: %s", result).isTrue();
	}

	static byte[] concat(byte[] first, byte[] second) {
		byte[] both = Arrays.copyOf(first, first.length + second.length);
		System.arraycopy(second, 0, both, first.length, second.length);
		return both;
	}

}
