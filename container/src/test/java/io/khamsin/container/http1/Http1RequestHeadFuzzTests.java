package io.khamsin.container.http1;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ConnectionRegistry;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.transport.ConnectionSecurity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Arbitrary bytes, in up to four reads, into the HTTP/1.1 pipeline of a connection on an {@code EmbeddedChannel}
 * (the codec and the connection handler, as {@link Http1Initializer} builds them), with an application that reads
 * the body and answers {@code ok}. No exception escapes the pipeline (a head the decoder can not read is answered
 * 400, 414 or 431), what it writes is a sequence of well-formed HTTP/1.1 responses, a refused head closes the
 * connection, and every buffer read is released once the connection has closed. Run with {@code JAZZER_FUZZ=1} to
 * fuzz ({@code benchmark/fuzz}); without it, the inputs in {@code Http1RequestHeadFuzzTestsInputs} are replayed.
 */
class Http1RequestHeadFuzzTests {

	private static final byte[] OK = "ok".getBytes(StandardCharsets.US_ASCII);

	private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 ([1-5][0-9][0-9]) [^\r\n]*\r\n");

	private static final Pattern FIELD_LINE = Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+): ?([^\r\n]*)\r\n");

	private static final HttpHandler APPLICATION = (request, response) -> request.getBody()
		.doOnNext(DataBufferUtils::release)
		.then(Mono.defer(() -> {
			response.setStatusCode(HttpStatus.OK);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(OK)));
		}));

	private static final KhamsinServerConfig CONFIG = KhamsinServerConfig.builder().build();

	@FuzzTest(maxDuration = "8s")
	void anyBytesAreAnsweredWithWellFormedResponsesOrACloseAndLeaveNothingHeld(FuzzedDataProvider data) {
		EmbeddedChannel channel = connect();
		List<ByteBuf> reads = new ArrayList<>();
		StringBuilder written = new StringBuilder();
		try {
			int parts = data.consumeInt(1, 4);
			for (int i = 0; i < parts; i++) {
				byte[] bytes = (i < parts - 1) ? data.consumeBytes(data.consumeInt(0, 512)) : data.consumeRemainingAsBytes();
				ByteBuf read = Unpooled.wrappedBuffer(bytes);
				reads.add(read);
				if (channel.isOpen()) {
					channel.writeInbound(read.retain());
					channel.runPendingTasks();
				}
				drain(channel, written);
			}
			boolean openBeforeClose = channel.isOpen();
			channel.finish();
			drain(channel, written);
			List<Integer> statuses = statuses(written.toString());
			if (!statuses.isEmpty() && isRefusalOfTheHead(statuses.get(statuses.size() - 1))) {
				assertThat(openBeforeClose).as("the connection is closed after refusing a head: %s", written).isFalse();
			}
		}
		finally {
			channel.finishAndReleaseAll();
			for (ByteBuf read : reads) {
				assertThat(read.refCnt()).as("a read still held after the connection closed").isEqualTo(1);
				read.release();
			}
		}
	}

	@Test
	void theTargetSeesAnAnswerAndARefusalWithTheClose() {
		EmbeddedChannel channel = connect();
		StringBuilder written = new StringBuilder();
		channel.writeInbound(Unpooled.copiedBuffer("GET / HTTP/1.1\r\nHost: a\r\n\r\nHEAD / HTTP/1.1\r\nHost: a\r\n\r\n"
				+ "GET / HTTP/1.1\r\nHost: a\r\nBad Header: b\r\n\r\n", StandardCharsets.US_ASCII));
		channel.runPendingTasks();
		drain(channel, written);
		boolean open = channel.isOpen();
		channel.finishAndReleaseAll();
		assertThat(statuses(written.toString())).containsExactly(200, 200, 400);
		assertThat(written).contains("\r\n\r\nok");
		assertThat(open).isFalse();
	}

	private static EmbeddedChannel connect() {
		EmbeddedChannel channel = new EmbeddedChannel();
		ServerContext context = new ServerContext(CONFIG.httpSettings(), APPLICATION,
				new ConnectionRegistry(CONFIG.maxConnections()), new GuardCounters());
		ExchangeDispatcher exchanges = new ExchangeDispatcher(context, List.of(), CONFIG.compression(),
				CONFIG.forwarded(), null, CONFIG.overload());
		new Http1Initializer(context, exchanges).initialize(channel, ConnectionSecurity.PLAIN);
		channel.pipeline().fireChannelActive();
		return channel;
	}

	private static void drain(EmbeddedChannel channel, StringBuilder written) {
		Object message;
		while ((message = channel.readOutbound()) != null) {
			try {
				assertThat(message).as("what the pipeline writes to the socket").isInstanceOf(ByteBuf.class);
				written.append(((ByteBuf) message).toString(StandardCharsets.ISO_8859_1));
			}
			finally {
				ReferenceCountUtil.release(message);
			}
		}
	}

	private static boolean isRefusalOfTheHead(int status) {
		return status == 400 || status == 414 || status == 431 || status == 505;
	}

	/**
	 * The statuses of the responses in what was written, asserting that it is a sequence of well-formed responses:
	 * a status line, field lines, an empty line, and a body of the length announced (or none, for a response to
	 * HEAD, which the application's answer here never is empty otherwise), or chunks.
	 */
	static List<Integer> statuses(String written) {
		List<Integer> statuses = new ArrayList<>();
		int at = 0;
		while (at < written.length()) {
			Matcher status = STATUS_LINE.matcher(written).region(at, written.length());
			assertThat(status.lookingAt()).as("a status line at %d of %s", at, written).isTrue();
			int code = Integer.parseInt(status.group(1));
			statuses.add(code);
			at = status.end();
			long length = -1;
			boolean chunked = false;
			while (!written.startsWith("\r\n", at)) {
				Matcher field = FIELD_LINE.matcher(written).region(at, written.length());
				assertThat(field.lookingAt()).as("a field line at %d of %s", at, written).isTrue();
				String name = field.group(1).toLowerCase(Locale.ROOT);
				if (name.equals("content-length")) {
					assertThat(length).as("one Content-Length in %s", written).isEqualTo(-1);
					length = Long.parseLong(field.group(2).trim());
				}
				else if (name.equals("transfer-encoding")) {
					chunked = field.group(2).trim().equalsIgnoreCase("chunked");
				}
				at = field.end();
			}
			at += 2;
			assertThat(chunked && length >= 0).as("both Content-Length and chunked in %s", written).isFalse();
			if (code < 200 || code == 204 || code == 304) {
				continue;
			}
			if (chunked) {
				at = skipChunks(written, at);
			}
			else if (length > 0) {
				boolean body = at + length <= written.length() && isResponseBoundary(written, (int) (at + length));
				assertThat(body || isResponseBoundary(written, at))
					.as("a body of %d bytes (or none, answering HEAD) at %d of %s", length, at, written)
					.isTrue();
				at += body ? (int) length : 0;
			}
		}
		return statuses;
	}

	private static boolean isResponseBoundary(String written, int at) {
		return at == written.length() || written.startsWith("HTTP/1.1 ", at);
	}

	private static int skipChunks(String written, int from) {
		int at = from;
		while (true) {
			int lineEnd = written.indexOf("\r\n", at);
			assertThat(lineEnd).as("a chunk size line at %d of %s", at, written).isGreaterThan(at);
			int size = Integer.parseInt(written.substring(at, lineEnd).trim(), 16);
			at = lineEnd + 2;
			if (size == 0) {
				assertThat(written.startsWith("\r\n", at)).as("the end of the chunks at %d of %s", at, written).isTrue();
				return at + 2;
			}
			at += size;
			assertThat(written.startsWith("\r\n", at)).as("the end of a chunk at %d of %s", at, written).isTrue();
			at += 2;
		}
	}

}
