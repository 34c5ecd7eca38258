package io.khamsin.container.http2.conformance;

import java.io.IOException;

import org.junit.jupiter.api.Nested;

import static io.khamsin.container.http2.conformance.ErrorCode.COMPRESSION_ERROR;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_HEADER_TABLE_SIZE;

/**
 * h2spec's hpack groups: header blocks that RFC 7541 says a decoder must treat as a decoding error, which RFC 9113
 * section 4.3 makes a connection error of type COMPRESSION_ERROR.
 */
class HpackTests {

	@Nested
	@Section(key = "hpack", number = "2.3.3", title = "Index Address Space")
	class IndexAddressSpace {

		@ConformanceCase("RFC 7541 §2.3.3")
		void anIndexedFieldBeyondBothTablesIsACompressionError(Peer peer) throws IOException {
			// 0xc6 is index 70: the static table ends at 61 and the dynamic table is empty.
			blockFailsToDecode(peer, (block) -> block.raw(0xc6));
		}

		@ConformanceCase("RFC 7541 §2.3.3")
		void aLiteralWhoseNameIndexIsBeyondBothTablesIsACompressionError(Peer peer) throws IOException {
			blockFailsToDecode(peer, (block) -> block.raw(0x7f, 0x07, 0x00));
		}

	}

	@Nested
	@Section(key = "hpack", number = "4.2", title = "Maximum Table Size")
	class MaximumTableSize {

		@ConformanceCase("RFC 7541 §4.2")
		void aTableSizeUpdateAtTheEndOfTheBlockIsACompressionError(Peer peer) throws IOException {
			blockFailsToDecode(peer, (block) -> block.tableSizeUpdate(1));
		}

		@ConformanceCase("RFC 7541 §4.2")
		void aTableSizeUpdateBetweenFieldsIsACompressionError(Peer peer) throws IOException {
			blockFailsToDecode(peer, (block) -> block.tableSizeUpdate(1).field("x-test", "ok"));
		}

	}

	@Nested
	@Section(key = "hpack", number = "5.2", title = "String Literal Representation")
	class StringLiterals {

		@ConformanceCase("RFC 7541 §5.2")
		void huffmanPaddingLongerThanSevenBitsIsACompressionError(Peer peer) throws IOException {
			blockFailsToDecode(peer, (block) -> block.raw(0x00, 0x85, 0xf2, 0xb2, 0x4a, 0x84, 0xff, 0x84, 0x49,
					0x50, 0x9f, 0xff));
		}

		@ConformanceCase("RFC 7541 §5.2")
		void huffmanPaddingOfZeroBitsIsACompressionError(Peer peer) throws IOException {
			blockFailsToDecode(peer,
					(block) -> block.raw(0x00, 0x85, 0xf2, 0xb2, 0x4a, 0x84, 0xff, 0x83, 0x49, 0x50, 0x90));
		}

		@ConformanceCase("RFC 7541 §5.2")
		void aHuffmanStringContainingEndOfStringIsACompressionError(Peer peer) throws IOException {
			blockFailsToDecode(peer, (block) -> block.raw(0x00, 0x85, 0xf2, 0xb2, 0x4a, 0x84, 0xff, 0x87, 0x49,
					0x51, 0xff, 0xff, 0xff, 0xfa, 0x7f));
		}

	}

	@Nested
	@Section(key = "hpack", number = "6.1", title = "Indexed Header Field Representation")
	class IndexedField {

		@ConformanceCase("RFC 7541 §6.1")
		void indexZeroIsACompressionError(Peer peer) throws IOException {
			blockFailsToDecode(peer, (block) -> block.indexed(0));
		}

	}

	@Nested
	@Section(key = "hpack", number = "6.3", title = "Dynamic Table Size Update")
	class DynamicTableSizeUpdate {

		@ConformanceCase("RFC 7541 §6.3")
		void anUpdateAboveTheAdvertisedTableSizeIsACompressionError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			long advertised = connection.serverSettings().getOrDefault(SETTINGS_HEADER_TABLE_SIZE, 4096L);
			HeaderBlock block = HeaderBlock.create()
				.tableSizeUpdate((int) advertised + 1)
				.raw(connection.requestBlock("GET").bytes());
			connection.headers(1, block.bytes(), true, true);
			connection.expect().connectionError(COMPRESSION_ERROR);
		}

	}

	/** A GET whose block the case ends with a representation that does not decode. */
	static void blockFailsToDecode(Peer peer, Http2MessagesTests.BlockChange change) throws IOException {
		H2Connection connection = peer.handshake();
		connection.headers(1, change.apply(connection.requestBlock("GET")).bytes(), true, true);
		connection.expect().connectionError(COMPRESSION_ERROR);
	}

}
