package io.khamsin.container.http2.conformance;

import java.io.IOException;

import org.junit.jupiter.api.Nested;

import io.khamsin.container.http2.conformance.H2Connection.Event;

import static io.khamsin.container.http2.conformance.ErrorCode.COMPRESSION_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.FRAME_SIZE_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_INITIAL_WINDOW_SIZE;
import static io.khamsin.container.http2.conformance.Payloads.ascii;
import static io.khamsin.container.http2.conformance.Payloads.dummyHeader;
import static io.khamsin.container.http2.conformance.Payloads.dummyHeaders;
import static io.khamsin.container.http2.conformance.Payloads.filler;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2spec's http2 groups 3.5 and 4: the connection preface, the frame format, frame sizes and header blocks.
 */
class Http2PrefaceAndFramesTests {

	@Nested
	@Section(key = "http2", number = "3.5", title = "HTTP/2 Connection Preface")
	class ConnectionPreface {

		@ConformanceCase("RFC 9113 §3.4")
		void theServerPrefaceIsASettingsFrameSentFirst(Peer peer) throws IOException {
			H2Connection connection = peer.connect();
			connection.send(H2Connection.PREFACE).settings(SETTINGS_INITIAL_WINDOW_SIZE, 65_535);
			Event first = connection.next(Peer.TIMEOUT);
			assertThat(first).as("the server's first frame").isNotNull();
			assertThat(first.frame()).as("the server's first frame").isNotNull();
			assertThat(first.frame().is(Frame.SETTINGS) && !first.frame().isAck())
				.as("%s is a SETTINGS frame without ACK", first.frame())
				.isTrue();
		}

		@ConformanceCase("RFC 9113 §3.4")
		void anInvalidClientPrefaceIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.connect();
			connection.send(ascii("INVALID CONNECTION PREFACE\r\n\r\n"));
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "4.1", title = "Frame Format")
	class FrameFormat {

		@ConformanceCase("RFC 9113 §4.1")
		void aFrameOfUnknownTypeIsIgnored(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(0x16, 0, 0, new byte[8]);
			connection.ping(false, new byte[8]);
			connection.expect().pingAck(new byte[8]);
		}

		@ConformanceCase("RFC 9113 §4.1")
		void undefinedFlagsAreIgnored(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.PING, 0x16, 0, new byte[8]);
			connection.expect().pingAck(new byte[8]);
		}

		@ConformanceCase("RFC 9113 §4.1")
		void theReservedBitOfTheStreamIdentifierIsIgnored(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(8, Frame.PING, 0x16, 0x80000000, new byte[8]);
			connection.expect().pingAck(new byte[8]);
		}

	}

	@Nested
	@Section(key = "http2", number = "4.2", title = "Frame Size")
	class FrameSize {

		@ConformanceCase("RFC 9113 §4.2")
		void aDataFrameOfTwoToTheFourteenOctetsIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), false, true);
			connection.data(1, filler(connection.serverMaxFrameSize()), true);
			connection.expect().headers(1);
		}

		@ConformanceCase("RFC 9113 §4.2")
		void aDataFrameLargerThanMaxFrameSizeIsAFrameSizeError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), false, true);
			connection.data(1, filler(connection.serverMaxFrameSize() + 1), true);
			connection.expect().streamError(1, FRAME_SIZE_ERROR);
		}

		@ConformanceCase("RFC 9113 §4.2")
		void aHeadersFrameLargerThanMaxFrameSizeIsAConnectionFrameSizeError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").raw(dummyHeaders(5, 4_000)).bytes();
			connection.headers(1, block, true, true);
			connection.expect().connectionError(FRAME_SIZE_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "4.3", title = "Header Compression and Decompression")
	class HeaderCompression {

		@ConformanceCase("RFC 9113 §4.3")
		void aHeaderBlockThatDoesNotDecodeIsAConnectionCompressionError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			// A literal with incremental indexing whose name length is missing.
			connection.headers(1, new byte[] { 0x40 }, true, true);
			connection.expect().connectionError(COMPRESSION_ERROR);
		}

		@ConformanceCase("RFC 9113 §4.3")
		void aPriorityFrameInsideAHeaderBlockIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), false, false);
			connection.priority(1, 0, false, 255);
			connection.continuation(1, dummyHeader(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §4.3")
		void aHeadersFrameForAnotherStreamInsideAHeaderBlockIsAConnectionProtocolError(Peer peer)
				throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), false, false);
			connection.headers(3, connection.requestBlock("GET").bytes(), true, true);
			connection.continuation(1, dummyHeader(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

	}

}
