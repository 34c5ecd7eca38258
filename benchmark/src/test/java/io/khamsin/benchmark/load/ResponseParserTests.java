package io.khamsin.benchmark.load;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ResponseParserTests {

	private final List<String> responses = new ArrayList<>();

	private final ResponseParser parser = new ResponseParser(
			(status, bytes, close) -> this.responses.add(status + " " + bytes + (close ? " close" : "")));

	@Test
	void contentLengthResponsesSplitAnywhereAreCountedWhole() {
		String two = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\ncontent-length: 13\r\n\r\nHello, World!"
				+ "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
		for (int split = 1; split < two.length(); split += 7) {
			feed(two.substring(0, split));
			feed(two.substring(split));
		}

		assertThat(this.responses).hasSize(2 * ((two.length() - 2) / 7 + 1)).containsOnly("200 13", "404 0");
	}

	@Test
	void chunkedBodiesAreCountedWithoutTheirFraming() {
		feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nHello\r\n8\r\n, World!\r\n0\r\n"
				+ "Trailer: x\r\n\r\n");

		assertThat(this.responses).containsExactly("200 13");
	}

	@Test
	void connectionCloseAndHttp10AreReportedAsClosing() {
		feed("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
		feed("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok");

		assertThat(this.responses).containsExactly("200 2 close", "200 2 close");
	}

	@Test
	void aBodyWithoutLengthRunsUntilTheConnectionCloses() {
		feed("HTTP/1.1 200 OK\r\n\r\nabc");
		feed("def");
		assertThat(this.responses).isEmpty();

		this.parser.onClose();

		assertThat(this.responses).containsExactly("200 6 close");
	}

	@Test
	void aMalformedStatusLineIsRejected() {
		assertThatIllegalStateException().isThrownBy(() -> feed("SSH-2.0-OpenSSH\r\n"))
			.withMessageContaining("not an HTTP/1.x status line");
	}

	private void feed(String text) {
		ByteBuf buffer = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
		try {
			this.parser.parse(buffer);
		}
		finally {
			buffer.release();
		}
	}

}
