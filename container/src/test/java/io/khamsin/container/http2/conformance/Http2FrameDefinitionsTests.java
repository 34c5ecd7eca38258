package io.khamsin.container.http2.conformance;

import java.io.IOException;

import org.junit.jupiter.api.Nested;

import static io.khamsin.container.http2.conformance.ErrorCode.CANCEL;
import static io.khamsin.container.http2.conformance.ErrorCode.FRAME_SIZE_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.STREAM_CLOSED;
import static io.khamsin.container.http2.conformance.Payloads.ascii;
import static io.khamsin.container.http2.conformance.Payloads.dummyHeader;
import static io.khamsin.container.http2.conformance.Payloads.opaque;

/**
 * h2spec's http2 group 6 but SETTINGS and WINDOW_UPDATE: the rules of each frame type.
 */
class Http2FrameDefinitionsTests {

	@Nested
	@Section(key = "http2", number = "6.1", title = "DATA")
	class Data {

		@ConformanceCase("RFC 9113 §6.1")
		void dataOnStreamZeroIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.data(0, ascii("test"), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.1")
		void dataOnAStreamThatIsNeitherOpenNorHalfClosedLocalIsAStreamClosedError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), true, true);
			connection.data(1, ascii("test"), true);
			connection.expect().streamError(1, STREAM_CLOSED);
		}

		@ConformanceCase("RFC 9113 §6.1")
		void dataWhosePaddingIsAsLongAsThePayloadIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST").setInt("content-length", 4)), false,
					true);
			// Pad Length 6 in a payload of 5 octets.
			connection.frame(Frame.DATA, Frame.FLAG_PADDED | Frame.FLAG_END_STREAM, 1,
					new byte[] { 0x06, 'T', 'e', 's', 't' });
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.2", title = "HEADERS")
	class Headers {

		@ConformanceCase("RFC 9113 §6.2")
		void headersWithoutEndHeadersFollowedByPriorityIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), false, false);
			connection.priority(1, 0, false, 255);
			connection.continuation(1, dummyHeader(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.2")
		void headersForAnotherStreamBeforeEndHeadersIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), false, false);
			connection.headers(3, connection.requestBlock("GET").bytes(), true, true);
			connection.continuation(1, dummyHeader(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.2")
		void headersOnStreamZeroIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(0, connection.requestBlock("GET").bytes(), true, true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.2")
		void headersWhosePaddingIsLongerThanThePayloadIsAProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").bytes();
			byte[] payload = new byte[1 + block.length];
			payload[0] = (byte) (block.length + 2);
			System.arraycopy(block, 0, payload, 1, block.length);
			connection.frame(Frame.HEADERS, Frame.FLAG_PADDED | Frame.FLAG_END_HEADERS | Frame.FLAG_END_STREAM, 1,
					payload);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.3", title = "PRIORITY")
	class Priority {

		@ConformanceCase("RFC 9113 §6.3")
		void priorityOnStreamZeroIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.priority(0, 0, false, 255);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.3")
		void priorityWithALengthOtherThanFiveIsAStreamFrameSizeError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.frame(Frame.PRIORITY, 0, 1, new byte[] { (byte) 0x80, 0, 0, 1 });
			connection.expect().streamError(1, FRAME_SIZE_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.4", title = "RST_STREAM")
	class RstStream {

		@ConformanceCase("RFC 9113 §6.4")
		void rstStreamOnStreamZeroIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.rstStream(0, CANCEL.code());
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.4")
		void rstStreamOnAnIdleStreamIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.rstStream(1, CANCEL.code());
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.4")
		void rstStreamWithALengthOtherThanFourIsAFrameSizeError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.frame(Frame.RST_STREAM, 0, 1, new byte[3]);
			connection.expect().streamError(1, FRAME_SIZE_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.7", title = "PING")
	class Ping {

		@ConformanceCase("RFC 9113 §6.7")
		void pingIsAcknowledgedWithTheSamePayload(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.ping(false, opaque("h2spec"));
			connection.expect().pingAck(opaque("h2spec"));
		}

		@ConformanceCase("RFC 9113 §6.7")
		void aPingAcknowledgementIsNotAnswered(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.ping(true, opaque("invalid"));
			connection.ping(false, opaque("h2spec"));
			connection.expect().pingAck(opaque("h2spec"));
		}

		@ConformanceCase("RFC 9113 §6.7")
		void pingOnAStreamOtherThanZeroIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.PING, 0, 1, new byte[8]);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.7")
		void pingWithALengthOtherThanEightIsAConnectionFrameSizeError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.PING, 0, 0, new byte[6]);
			connection.expect().connectionError(FRAME_SIZE_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.8", title = "GOAWAY")
	class GoAway {

		@ConformanceCase("RFC 9113 §6.8")
		void goawayOnAStreamOtherThanZeroIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.GOAWAY, 0, 1, new byte[8]);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.10", title = "CONTINUATION")
	class Continuation {

		@ConformanceCase("RFC 9113 §6.10")
		void severalContinuationFramesAfterHeadersAreAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), true, false);
			connection.continuation(1, dummyHeader(), false);
			connection.continuation(1, HeaderBlock.create().field("x-dummy1", "y").bytes(), true);
			connection.expect().headers(1);
		}

		@ConformanceCase("RFC 9113 §6.10")
		void aFrameOtherThanContinuationBeforeEndHeadersIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").bytes(), false, false);
			connection.continuation(1, dummyHeader(), false);
			connection.data(1, ascii("test"), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.10")
		void continuationOnStreamZeroIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), true, false);
			connection.continuation(0, dummyHeader(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.10")
		void continuationAfterHeadersWithEndHeadersIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), true, true);
			connection.continuation(1, dummyHeader(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.10")
		void continuationAfterContinuationWithEndHeadersIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), true, false);
			connection.continuation(1, dummyHeader(), true);
			connection.continuation(1, HeaderBlock.create().field("x-dummy1", "y").bytes(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.10")
		void continuationAfterDataIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), false, true);
			connection.data(1, ascii("test"), true);
			connection.continuation(1, dummyHeader(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

	}

}
