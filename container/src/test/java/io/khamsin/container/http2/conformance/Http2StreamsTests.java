package io.khamsin.container.http2.conformance;

import java.io.IOException;

import org.junit.jupiter.api.Nested;

import static io.khamsin.container.http2.conformance.ErrorCode.CANCEL;
import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.REFUSED_STREAM;
import static io.khamsin.container.http2.conformance.ErrorCode.STREAM_CLOSED;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_INITIAL_WINDOW_SIZE;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_MAX_CONCURRENT_STREAMS;
import static io.khamsin.container.http2.conformance.Payloads.ascii;
import static io.khamsin.container.http2.conformance.Payloads.dummyHeader;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2spec's http2 group 5: stream states, identifiers and concurrency, priority, error handling and extensions.
 */
class Http2StreamsTests {

	@Nested
	@Section(key = "http2", number = "5.1", title = "Stream States")
	class StreamStates {

		@ConformanceCase("RFC 9113 §5.1")
		void dataOnAnIdleStreamIsAProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.data(1, ascii("test"), true);
			// h2spec accepts a stream error too, and STREAM_CLOSED as well as PROTOCOL_ERROR.
			connection.expect().streamError(1, PROTOCOL_ERROR, STREAM_CLOSED);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void rstStreamOnAnIdleStreamIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.rstStream(1, CANCEL.code());
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void windowUpdateOnAnIdleStreamIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.windowUpdate(1, 100);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void continuationOnAnIdleStreamIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.continuation(1, connection.requestBlock("GET").bytes(), true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void dataOnAHalfClosedRemoteStreamIsAStreamClosedError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.data(1, ascii("test"), true);
			connection.expect().streamError(1, STREAM_CLOSED);
		}

		@ConformanceCase("RFC 9113 §5.1")
		@Requires(Capability.HALF_CLOSED_STREAM_STATE_FIRST)
		void headersOnAHalfClosedRemoteStreamIsAStreamClosedError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.headers(1, connection.requestBlock("GET").bytes(), true, true);
			connection.expect().streamError(1, STREAM_CLOSED);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void continuationOnAHalfClosedRemoteStreamIsAnError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.continuation(1, connection.requestBlock("GET").bytes(), true);
			connection.expect().streamError(1, STREAM_CLOSED, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void dataAfterTheClientResetTheStreamIsAStreamClosedError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), false, true);
			connection.rstStream(1, CANCEL.code());
			connection.data(1, ascii("test"), true);
			connection.expect().streamError(1, STREAM_CLOSED);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void headersAfterTheClientResetTheStreamIsAStreamClosedError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), false, true);
			connection.rstStream(1, CANCEL.code());
			connection.headers(1, connection.requestBlock("GET").bytes(), true, true);
			connection.expect().streamError(1, STREAM_CLOSED);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void continuationAfterTheClientResetTheStreamIsAnError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), false, true);
			connection.rstStream(1, CANCEL.code());
			connection.continuation(1, dummyHeader(), true);
			connection.expect().streamError(1, STREAM_CLOSED, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void dataOnAClosedStreamIsAStreamClosedError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.expect().response(1);
			connection.data(1, ascii("test"), true);
			connection.expect().streamError(1, STREAM_CLOSED);
		}

		@ConformanceCase("RFC 9113 §5.1")
		@Requires(Capability.CLOSED_STREAM_CONNECTION_ERROR)
		void headersOnAClosedStreamIsAConnectionStreamClosedError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").bytes();
			connection.headers(1, block, true, true);
			connection.expect().response(1);
			connection.headers(1, block, true, true);
			connection.expect().connectionError(STREAM_CLOSED);
		}

		@ConformanceCase("RFC 9113 §5.1")
		void continuationOnAClosedStreamIsAConnectionError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.get(1);
			connection.expect().response(1);
			connection.continuation(1, dummyHeader(), true);
			connection.expect().connectionError(STREAM_CLOSED, PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "5.1.1", title = "Stream Identifiers")
	class StreamIdentifiers {

		@ConformanceCase("RFC 9113 §5.1.1")
		void anEvenStreamIdentifierFromTheClientIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(2, connection.requestBlock("GET").bytes(), true, true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §5.1.1")
		@Requires(Capability.STREAM_IDENTIFIER_ORDER)
		void aStreamIdentifierSmallerThanAPreviousOneIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			byte[] block = connection.requestBlock("GET").bytes();
			connection.headers(5, block, true, true);
			connection.headers(3, block, true, true);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "5.1.2", title = "Stream Concurrency")
	class StreamConcurrency {

		@ConformanceCase("RFC 9113 §5.1.2")
		void aStreamBeyondTheAdvertisedConcurrencyLimitIsRefused(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			Long max = connection.serverSettings().get(SETTINGS_MAX_CONCURRENT_STREAMS);
			assertThat(max).as("SETTINGS_MAX_CONCURRENT_STREAMS in the server's preface").isNotNull();
			// A zero window keeps every response from finishing, so that all streams stay open.
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 0);
			byte[] block = connection.requestBlock("GET").bytes();
			int streamId = 1;
			for (int i = 0; i <= max; i++) {
				connection.headers(streamId, block, true, true);
				streamId += 2;
			}
			connection.expect().streamError(streamId - 2, PROTOCOL_ERROR, REFUSED_STREAM);
		}

	}

	@Nested
	@Section(key = "http2", number = "5.3.1", title = "Stream Dependencies")
	class StreamDependencies {

		@ConformanceCase("RFC 9113 §5.3.1")
		void headersThatDependOnTheirOwnStreamIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headersWithPriority(1, connection.requestBlock("GET").bytes(), 1, false, 255, true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §5.3.1")
		void aPriorityFrameThatDependsOnItsOwnStreamIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.priority(1, 1, false, 255);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "5.4.1", title = "Connection Error Handling")
	class ConnectionErrorHandling {

		@ConformanceCase("RFC 9113 §5.4.1")
		void aConnectionErrorClosesTheConnection(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.PING, 0, 3, new byte[8]);
			connection.expect().connectionClose();
		}

		@ConformanceCase("RFC 9113 §5.4.1")
		void aConnectionErrorIsAnnouncedWithGoaway(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.PING, 0, 3, new byte[8]);
			connection.expect().goAway(PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "5.5", title = "Extending HTTP/2")
	class ExtendingHttp2 {

		@ConformanceCase("RFC 9113 §5.5")
		void anUnknownExtensionFrameIsIgnored(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(0x16, 0, 0, new byte[8]);
			connection.ping(false, new byte[8]);
			connection.expect().pingAck(new byte[8]);
		}

		@ConformanceCase("RFC 9113 §5.5")
		void anUnknownExtensionFrameInsideAHeaderBlockIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), true, false);
			connection.frame(0x16, 0, 0, new byte[8]);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

	}

}
