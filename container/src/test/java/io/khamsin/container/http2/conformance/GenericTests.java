package io.khamsin.container.http2.conformance;

import java.io.IOException;
import java.util.Arrays;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import org.junit.jupiter.api.Nested;

import static io.khamsin.container.http2.conformance.ErrorCode.CANCEL;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_ENABLE_PUSH;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_HEADER_TABLE_SIZE;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_INITIAL_WINDOW_SIZE;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_MAX_CONCURRENT_STREAMS;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_MAX_FRAME_SIZE;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_MAX_HEADER_LIST_SIZE;
import static io.khamsin.container.http2.conformance.Payloads.ascii;
import static io.khamsin.container.http2.conformance.Payloads.opaque;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2spec's generic groups: what every server must accept, each valid frame type and representation once.
 */
class GenericTests {

	@Nested
	@Section(key = "generic", number = "1", title = "Starting HTTP/2")
	class StartingHttp2 {

		@ConformanceCase("RFC 9113 §3.4")
		void theClientPrefaceIsAcceptedAndAnsweredWithSettings(Peer peer) throws IOException {
			H2Connection connection = peer.connect();
			connection.send(H2Connection.PREFACE).settings(SETTINGS_INITIAL_WINDOW_SIZE, 65_535);
			H2Connection.Event first = connection.next(Peer.TIMEOUT);
			assertThat(first).as("the server's first frame").isNotNull();
			assertThat(first.frame()).as("the server's first frame").isNotNull();
			assertThat(first.frame().is(Frame.SETTINGS) && !first.frame().isAck()).as("%s", first).isTrue();
		}

	}

	@Nested
	@Section(key = "generic", number = "2", title = "Streams and Multiplexing")
	class StreamsAndMultiplexing {

		@ConformanceCase("RFC 9113 §5.1")
		void priorityOnAnIdleStreamIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.priority(1, 0, false, 255);
			connection.ping(false, new byte[8]);
			connection.expect().pingAck(new byte[8]);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void windowUpdateOnAHalfClosedRemoteStreamIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake(SETTINGS_INITIAL_WINDOW_SIZE, 0);
			connection.get(1);
			connection.windowUpdate(1, 1);
			connection.expect().data(1);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void priorityOnAHalfClosedRemoteStreamIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake(SETTINGS_INITIAL_WINDOW_SIZE, 0);
			connection.get(1);
			connection.priority(1, 0, false, 255);
			connection.windowUpdate(1, 1);
			connection.expect().data(1);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void rstStreamOnAHalfClosedRemoteStreamIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.rstStream(1, CANCEL.code());
			connection.ping(false, new byte[8]);
			connection.expect().pingAckOrClose(new byte[8]);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void priorityOnAClosedStreamIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.expect().response(1);
			connection.priority(1, 0, false, 255);
			connection.ping(false, new byte[8]);
			connection.expect().pingAck(new byte[8]);
		}

	}

	@Nested
	@Section(key = "generic", number = "3.1", title = "DATA")
	class Data {

		@ConformanceCase("RFC 9113 §6.1")
		void aDataFrameIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.post(1, ascii("test"));
			assertThat(connection.expect().response(1).body()).isEqualTo(ascii("test"));
		}

		@ConformanceCase("RFC 9113 §6.1")
		void severalDataFramesAreAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), false, true);
			connection.data(1, ascii("test"), false);
			connection.data(1, ascii("test"), true);
			assertThat(connection.expect().response(1).body()).isEqualTo(ascii("testtest"));
		}

		@ConformanceCase("RFC 9113 §6.1")
		void aPaddedDataFrameIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), false, true);
			connection.dataPadded(1, ascii("test"), 5, true);
			assertThat(connection.expect().response(1).body()).as("the body without its padding")
				.isEqualTo(ascii("test"));
		}

	}

	@Nested
	@Section(key = "generic", number = "3.2", title = "HEADERS")
	class Headers {

		@ConformanceCase("RFC 9113 §6.2")
		void aHeadersFrameIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

		@ConformanceCase("RFC 9113 §6.2")
		void aPaddedHeadersFrameIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headersPadded(1, connection.encode(connection.request("GET")), 8, true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

		@ConformanceCase("RFC 9113 §6.2")
		void aHeadersFrameWithPriorityIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headersWithPriority(1, connection.encode(connection.request("GET")), 0, false, 255, true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

	}

	@Nested
	@Section(key = "generic", number = "3.3", title = "PRIORITY")
	class Priority {

		@ConformanceCase("RFC 9113 §6.3")
		void priorityWithTheLowestWeightIsAccepted(Peer peer) throws IOException {
			prioritizedThenRequested(peer, 1, 0, false, 0);
		}

		@ConformanceCase("RFC 9113 §6.3")
		void priorityWithTheHighestWeightIsAccepted(Peer peer) throws IOException {
			prioritizedThenRequested(peer, 1, 0, false, 255);
		}

		@ConformanceCase("RFC 9113 §6.3")
		void priorityWithAStreamDependencyIsAccepted(Peer peer) throws IOException {
			prioritizedThenRequested(peer, 3, 1, false, 0);
		}

		@ConformanceCase("RFC 9113 §6.3")
		void exclusivePriorityIsAccepted(Peer peer) throws IOException {
			prioritizedThenRequested(peer, 1, 0, true, 0);
		}

		@ConformanceCase("RFC 9113 §6.3")
		void priorityForAnIdleStreamThenARequestOnALowerStreamIsAnswered(Peer peer) throws IOException {
			prioritizedThenRequested(peer, 3, 0, false, 255);
		}

		private void prioritizedThenRequested(Peer peer, int prioritized, int dependency, boolean exclusive,
				int weight) throws IOException {
			H2Connection connection = peer.handshake();
			connection.priority(prioritized, dependency, exclusive, weight);
			connection.get(1);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

	}

	@Nested
	@Section(key = "generic", number = "3.4", title = "RST_STREAM")
	class RstStream {

		@ConformanceCase("RFC 9113 §6.4")
		void rstStreamIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), false, true);
			connection.rstStream(1, CANCEL.code());
			connection.ping(false, new byte[8]);
			connection.expect().pingAckOrClose(new byte[8]);
		}

	}

	@Nested
	@Section(key = "generic", number = "3.5", title = "SETTINGS")
	class Settings {

		@ConformanceCase("RFC 9113 §6.5")
		void settingsWithEveryDefinedParameterIsAcknowledged(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_HEADER_TABLE_SIZE, 4096, SETTINGS_ENABLE_PUSH, 1,
					SETTINGS_MAX_CONCURRENT_STREAMS, 100, SETTINGS_INITIAL_WINDOW_SIZE, 65_535,
					SETTINGS_MAX_FRAME_SIZE, 16_384, SETTINGS_MAX_HEADER_LIST_SIZE, 100);
			connection.expect().settingsAck();
		}

	}

	@Nested
	@Section(key = "generic", number = "3.7", title = "PING")
	class Ping {

		@ConformanceCase("RFC 9113 §6.7")
		void pingIsAcknowledged(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.ping(false, opaque("h2spec"));
			connection.expect().pingAck(opaque("h2spec"));
		}

	}

	@Nested
	@Section(key = "generic", number = "3.8", title = "GOAWAY")
	class GoAway {

		@ConformanceCase("RFC 9113 §6.8")
		void goawayIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.goAway(0, 0, ascii("h2spec"));
			connection.ping(false, opaque("h2spec"));
			connection.expect().pingAckOrClose(opaque("h2spec"));
		}

	}

	@Nested
	@Section(key = "generic", number = "3.9", title = "WINDOW_UPDATE")
	class WindowUpdate {

		@ConformanceCase("RFC 9113 §6.9")
		void windowUpdateOnTheConnectionIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.windowUpdate(0, 1);
			connection.ping(false, new byte[8]);
			connection.expect().pingAck(new byte[8]);
		}

		@ConformanceCase("RFC 9113 §6.9")
		void windowUpdateOnAStreamIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.windowUpdate(1, 1);
			connection.expect().headers(1);
		}

	}

	@Nested
	@Section(key = "generic", number = "3.10", title = "CONTINUATION")
	class Continuation {

		@ConformanceCase("RFC 9113 §6.10")
		void aContinuationFrameIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").bytes();
			connection.headers(1, slice(block, 0, 5), true, false);
			connection.continuation(1, slice(block, 5, block.length), true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

		@ConformanceCase("RFC 9113 §6.10")
		void severalContinuationFramesAreAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").bytes();
			connection.headers(1, slice(block, 0, 5), true, false);
			connection.continuation(1, slice(block, 5, 10), false);
			connection.continuation(1, slice(block, 10, block.length), true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

		private static byte[] slice(byte[] bytes, int from, int to) {
			return Arrays.copyOfRange(bytes, from, to);
		}

	}

	@Nested
	@Section(key = "generic", number = "4", title = "HTTP Message Exchanges")
	class MessageExchanges {

		@ConformanceCase("RFC 9113 §8.1")
		void aGetIsAnswered(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			H2Expectations.Response response = connection.expect().response(1);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isNotEmpty();
		}

		@ConformanceCase("RFC 9113 §8.1")
		void aHeadIsAnsweredWithoutContent(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("HEAD")), true, true);
			H2Expectations.Response response = connection.expect().response(1);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEmpty();
		}

		@ConformanceCase("RFC 9113 §8.1")
		void aPostIsAnswered(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.post(1, ascii("test"));
			H2Expectations.Response response = connection.expect().response(1);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEqualTo(ascii("test"));
		}

		@ConformanceCase("RFC 9113 §8.1")
		void aPostWithTrailersIsAnswered(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST").add("trailer", "x-test")), false,
					true);
			connection.data(1, ascii("test"), false);
			connection.headers(1, connection.encode(new DefaultHttp2Headers().add("x-test", "ok")), true, true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

	}

	@Nested
	@Section(key = "generic", number = "5", title = "HPACK")
	class Hpack {

		@ConformanceCase("RFC 7541 §6.1")
		void anIndexedFieldIsAccepted(Peer peer) throws IOException {
			// 0xba is static index 58, user-agent with an empty value.
			answered(peer, 0xba);
		}

		@ConformanceCase("RFC 7541 §6.2.1")
		void aLiteralWithIncrementalIndexingAndAnIndexedNameIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x40, 0x87, 0xb5, 0x05, 0xb1, 0x61, 0xcc, 0x5a, 0x93, 0x84, 0x9c, 0x48, 0xac, 0xa4);
		}

		@ConformanceCase("RFC 7541 §6.2.1")
		void aLiteralWithIncrementalIndexingAndAnIndexedNameInHuffmanIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x40, 0x0a, 'u', 's', 'e', 'r', '-', 'a', 'g', 'e', 'n', 't', 0x06, 'h', '2', 's', 'p',
					'e', 'c');
		}

		@ConformanceCase("RFC 7541 §6.2.1")
		void aLiteralWithIncrementalIndexingAndANewNameIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x40, 0x06, 'x', '-', 't', 'e', 's', 't', 0x06, 'h', '2', 's', 'p', 'e', 'c');
		}

		@ConformanceCase("RFC 7541 §6.2.1")
		void aLiteralWithIncrementalIndexingAndANewNameInHuffmanIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x40, 0x85, 0xf2, 0xb2, 0x4a, 0x84, 0xff, 0x84, 0x9c, 0x48, 0xac, 0xa4);
		}

		@ConformanceCase("RFC 7541 §6.2.2")
		void aLiteralWithoutIndexingAndAnIndexedNameIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x00, 0x0a, 'u', 's', 'e', 'r', '-', 'a', 'g', 'e', 'n', 't', 0x06, 'h', '2', 's', 'p',
					'e', 'c');
		}

		@ConformanceCase("RFC 7541 §6.2.2")
		void aLiteralWithoutIndexingAndAnIndexedNameInHuffmanIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x00, 0x87, 0xb5, 0x05, 0xb1, 0x61, 0xcc, 0x5a, 0x93, 0x84, 0x9c, 0x48, 0xac, 0xa4);
		}

		@ConformanceCase("RFC 7541 §6.2.2")
		void aLiteralWithoutIndexingAndANewNameIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x00, 0x06, 'x', '-', 't', 'e', 's', 't', 0x06, 'h', '2', 's', 'p', 'e', 'c');
		}

		@ConformanceCase("RFC 7541 §6.2.2")
		void aLiteralWithoutIndexingAndANewNameInHuffmanIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x00, 0x85, 0xf2, 0xb2, 0x4a, 0x84, 0xff, 0x84, 0x9c, 0x48, 0xac, 0xa4);
		}

		@ConformanceCase("RFC 7541 §6.2.3")
		void aLiteralNeverIndexedWithAnIndexedNameIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x10, 0x0a, 'u', 's', 'e', 'r', '-', 'a', 'g', 'e', 'n', 't', 0x06, 'h', '2', 's', 'p',
					'e', 'c');
		}

		@ConformanceCase("RFC 7541 §6.2.3")
		void aLiteralNeverIndexedWithAnIndexedNameInHuffmanIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x10, 0x87, 0xb5, 0x05, 0xb1, 0x61, 0xcc, 0x5a, 0x93, 0x84, 0x9c, 0x48, 0xac, 0xa4);
		}

		@ConformanceCase("RFC 7541 §6.2.3")
		void aLiteralNeverIndexedWithANewNameIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x10, 0x06, 'x', '-', 't', 'e', 's', 't', 0x06, 'h', '2', 's', 'p', 'e', 'c');
		}

		@ConformanceCase("RFC 7541 §6.2.3")
		void aLiteralNeverIndexedWithANewNameInHuffmanIsAccepted(Peer peer) throws IOException {
			answered(peer, 0x10, 0x85, 0xf2, 0xb2, 0x4a, 0x84, 0xff, 0x84, 0x9c, 0x48, 0xac, 0xa4);
		}

		@ConformanceCase("RFC 7541 §6.3")
		void aDynamicTableSizeUpdateIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			HeaderBlock block = HeaderBlock.create().tableSizeUpdate(128).raw(connection.requestBlock("GET").bytes());
			connection.headers(1, block.bytes(), true, true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

		@ConformanceCase("RFC 7541 §6.3")
		void severalDynamicTableSizeUpdatesAreAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			HeaderBlock block = HeaderBlock.create()
				.raw(0x3f, 0x61, 0x3f, 0xe1, 0x1f)
				.raw(connection.requestBlock("GET").bytes());
			connection.headers(1, block.bytes(), true, true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

		/** A GET ended with a representation as h2spec writes it. */
		private void answered(Peer peer, int... representation) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").raw(representation).bytes(), true, true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

	}

}
