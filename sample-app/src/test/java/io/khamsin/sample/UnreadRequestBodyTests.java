package io.khamsin.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.LeakDetectionExtension;
import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A request body that has fully arrived and that the handler never reads, as an asynchronous check that rejects
 * or a slow page that ignores its body would leave it: the container releases it when the exchange ends, on a
 * kept-alive connection and when the client goes away. The sample's pages answer after 50 ms without reading the
 * body; the leak detector runs at PARANOID, so a buffer never released is reported once it is collected.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UnreadRequestBodyTests {

	private static final int PAGES = 20;

	private static final String BODY = "ignored";

	@ParameterizedTest
	@EnumSource
	void anUnreadBodyIsReleasedWhenTheAnswerComesOnAKeptAliveConnection(Container container) throws Exception {
		int mark = LeakDetectionExtension.mark();
		try (RawHttpConnection connection = new RawHttpConnection(container.server().port())) {
			for (int round = 0; round < 3; round++) {
				for (int i = 0; i < PAGES; i++) {
					RawHttpConnection.Response page = connection.send(getWithBody("/page/kept-" + round + "-" + i))
						.read();
					assertThat(page.status()).isEqualTo(200);
					assertThat(page.bodyText()).contains("Product kept-" + round + "-" + i);
				}
				// The connection took the next request: the exchanges before it are over.
				assertThat(connection.send(Requests.get("/plaintext")).read().bodyText()).isEqualTo("Hello, World!");
				assertThat(LeakDetectionExtension.reportsSince(mark)).as("leak reports after round %d", round).isEmpty();
			}
		}
	}

	@ParameterizedTest
	@EnumSource
	void anUnreadBodyIsReleasedWhenTheClientGoesAwayBeforeTheAnswer(Container container) throws Exception {
		SampleServer server = container.server();
		int mark = LeakDetectionExtension.mark();
		double before = pageRequests(server);
		for (int i = 0; i < PAGES; i++) {
			try (RawHttpConnection connection = new RawHttpConnection(server.port())) {
				connection.send(getWithBody("/page/gone-" + i));
			}
		}
		// Each request was served to its end, cancelled when its connection closed.
		await().atMost(Duration.ofSeconds(30)).until(() -> pageRequests(server) >= before + PAGES);
		assertThat(LeakDetectionExtension.reportsSince(mark)).isEmpty();
	}

	private static String getWithBody(String target) {
		return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: "
				+ BODY.length() + "\r\n\r\n" + BODY;
	}

	private static double pageRequests(SampleServer server) {
		List<Timer> timers = List.copyOf(server.bean(MeterRegistry.class)
			.find("http.server.requests")
			.tag("uri", "/page/{id}")
			.timers());
		return timers.stream().mapToDouble(Timer::count).sum();
	}

}
