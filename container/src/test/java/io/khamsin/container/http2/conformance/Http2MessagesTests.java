package io.khamsin.container.http2.conformance;

import java.io.IOException;

import org.junit.jupiter.api.Nested;

import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.Payloads.ascii;
import static io.khamsin.container.http2.conformance.Payloads.opaque;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2spec's http2 groups 7 and 8: error codes, and the HTTP message rules of RFC 9113 section 8 (h2spec numbers
 * them after RFC 7540, 8.1.2.x; each case cites the section of RFC 9113 that now holds the rule).
 */
class Http2MessagesTests {

	@Nested
	@Section(key = "http2", number = "7", title = "Error Codes")
	class ErrorCodes {

		@ConformanceCase("RFC 9113 §7")
		void goawayWithAnUnknownErrorCodeTriggersNothingSpecial(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.goAway(0, 0xff, new byte[0]);
			connection.ping(false, opaque("h2spec"));
			connection.expect().pingAckOrClose(opaque("h2spec"));
		}

		@ConformanceCase("RFC 9113 §7")
		void rstStreamWithAnUnknownErrorCodeTriggersNothingSpecial(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.encode(connection.request("POST")), false, true);
			connection.rstStream(1, 0xff);
			connection.ping(false, new byte[8]);
			connection.expect().pingAckOrClose(new byte[8]);
		}

	}

	@Nested
	@Section(key = "http2", number = "8.1", title = "HTTP Request/Response Exchange")
	class RequestResponseExchange {

		@ConformanceCase("RFC 9113 §8.1")
		void aSecondHeadersFrameWithoutEndStreamIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").bytes(), false, true);
			connection.data(1, ascii("test"), false);
			connection.headers(1, HeaderBlock.create().field("x-test", "ok").bytes(), false, true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §8.1")
		void trailersThatEndTheStreamAreAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").field("trailer", "x-test").bytes(), false, true);
			connection.data(1, ascii("test"), false);
			connection.headers(1, HeaderBlock.create().field("x-test", "ok").bytes(), true, true);
			H2Expectations.Response response = connection.expect().response(1);
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).as("the echoed body").isEqualTo(ascii("test"));
		}

	}

	@Nested
	@Section(key = "http2", number = "8.1.2", title = "HTTP Header Fields")
	class HeaderFields {

		@ConformanceCase("RFC 9113 §8.2.1")
		void anUpperCaseFieldNameIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("X-TEST", "ok"));
		}

		@ConformanceCase("RFC 9113 §8.2.1")
		void aFieldValueWithALineFeedIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("x-test", "ok\nx-injected: yes"));
		}

		@ConformanceCase("RFC 9113 §8.2.1")
		void aFieldValueWithANulIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("x-test", "o\0k"));
		}

		@ConformanceCase("RFC 9113 §8.2.1")
		void aFieldValueWithLeadingWhitespaceIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("x-test", " ok"));
		}

		@ConformanceCase("RFC 9113 §8.2.1")
		void aFieldNameWithAColonInsideIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("x:test", "ok"));
		}

	}

	@Nested
	@Section(key = "http2", number = "8.1.2.1", title = "Pseudo-Header Fields")
	class PseudoHeaderFields {

		@ConformanceCase("RFC 9113 §8.3")
		void anUnknownPseudoHeaderFieldIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field(":test", "ok"));
		}

		@ConformanceCase("RFC 9113 §8.3")
		void aResponsePseudoHeaderFieldInARequestIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field(":status", "200"));
		}

		@ConformanceCase("RFC 9113 §8.3")
		void aPseudoHeaderFieldInTrailersIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").bytes(), false, true);
			connection.data(1, ascii("test"), false);
			connection.headers(1, HeaderBlock.create().field(":method", "POST").bytes(), true, true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §8.3")
		void aPseudoHeaderFieldAfterARegularFieldIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			HeaderBlock block = HeaderBlock.create().field("x-test", "ok").raw(connection.requestBlock("GET").bytes());
			connection.headers(1, block.bytes(), true, true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "8.1.2.2", title = "Connection-Specific Header Fields")
	class ConnectionSpecificFields {

		@ConformanceCase("RFC 9113 §8.2.2")
		void aConnectionFieldIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("connection", "keep-alive"));
		}

		@ConformanceCase("RFC 9113 §8.2.2")
		void aKeepAliveFieldIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("keep-alive", "timeout=5"));
		}

		@ConformanceCase("RFC 9113 §8.2.2")
		void aTransferEncodingFieldIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("transfer-encoding", "chunked"));
		}

		@ConformanceCase("RFC 9113 §8.2.2")
		void anUpgradeFieldIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field("upgrade", "websocket"));
		}

		@ConformanceCase("RFC 9113 §8.2.2")
		void aTeFieldOtherThanTrailersIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer,
					(block) -> block.field("trailers", "test").field("te", "trailers, deflate"));
		}

		@ConformanceCase("RFC 9113 §8.2.2")
		void aTeFieldOfTrailersIsAccepted(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").field("te", "trailers").bytes(), true, true);
			assertThat(connection.expect().response(1).status()).isEqualTo(200);
		}

	}

	@Nested
	@Section(key = "http2", number = "8.1.2.3", title = "Request Pseudo-Header Fields")
	class RequestPseudoHeaderFields {

		@ConformanceCase("RFC 9113 §8.3.1")
		void anEmptyPathIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			HeaderBlock block = HeaderBlock.create()
				.field(":method", "GET")
				.field(":scheme", connection.endpoint().scheme())
				.field(":path", "")
				.field(":authority", connection.endpoint().authority());
			connection.headers(1, block.bytes(), true, true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §8.3.1")
		void aRequestWithoutMethodIsAStreamProtocolError(Peer peer) throws IOException {
			requestWithout(peer, ":method");
		}

		@ConformanceCase("RFC 9113 §8.3.1")
		void aRequestWithoutSchemeIsAStreamProtocolError(Peer peer) throws IOException {
			requestWithout(peer, ":scheme");
		}

		@ConformanceCase("RFC 9113 §8.3.1")
		void aRequestWithoutPathIsAStreamProtocolError(Peer peer) throws IOException {
			requestWithout(peer, ":path");
		}

		@ConformanceCase("RFC 9113 §8.3.1")
		void aRepeatedMethodIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field(":method", "GET"));
		}

		@ConformanceCase("RFC 9113 §8.3.1")
		void aRepeatedSchemeIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field(":scheme", "http"));
		}

		@ConformanceCase("RFC 9113 §8.3.1")
		void aRepeatedPathIsAStreamProtocolError(Peer peer) throws IOException {
			requestFailsWithStreamProtocolError(peer, (block) -> block.field(":path", "/"));
		}

		private void requestWithout(Peer peer, String omitted) throws IOException {
			H2Connection connection = peer.handshake();
			HeaderBlock block = HeaderBlock.create();
			String[][] fields = { { ":method", "GET" }, { ":scheme", connection.endpoint().scheme() },
					{ ":path", "/" }, { ":authority", connection.endpoint().authority() } };
			for (String[] field : fields) {
				if (!field[0].equals(omitted)) {
					block.field(field[0], field[1]);
				}
			}
			connection.headers(1, block.bytes(), true, true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "8.1.2.6", title = "Malformed Requests and Responses")
	class MalformedRequests {

		@ConformanceCase("RFC 9113 §8.1.1")
		void aContentLengthOtherThanTheDataLengthIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").field("content-length", "1").bytes(), false, true);
			connection.data(1, ascii("test"), true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §8.1.1")
		void aContentLengthOtherThanTheSumOfTheDataFramesIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").field("content-length", "1").bytes(), false, true);
			connection.data(1, ascii("test"), false);
			connection.data(1, ascii("test"), true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §8.1.1")
		void aContentLengthLargerThanTheDataAtEndOfStreamIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").field("content-length", "10").bytes(), false,
					true);
			connection.data(1, ascii("test"), true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §8.1.1")
		void aContentLengthOnHeadersThatEndTheStreamIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").field("content-length", "4").bytes(), true, true);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "8.2", title = "Server Push")
	class ServerPush {

		@ConformanceCase("RFC 9113 §8.4")
		void pushPromiseFromTheClientIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("GET").bytes(), false, true);
			connection.pushPromise(1, 3, connection.requestBlock("GET").bytes());
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

	}

	/** A GET whose block the case extends after the four request pseudo-header fields. */
	static void requestFailsWithStreamProtocolError(Peer peer, BlockChange change) throws IOException {
		H2Connection connection = peer.handshake();
		connection.headers(1, change.apply(connection.requestBlock("GET")).bytes(), true, true);
		connection.expect().streamError(1, PROTOCOL_ERROR);
	}

	@FunctionalInterface
	interface BlockChange {

		HeaderBlock apply(HeaderBlock block);

	}

}
