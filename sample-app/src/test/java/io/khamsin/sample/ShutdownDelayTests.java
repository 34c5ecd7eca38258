package io.khamsin.sample;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The sample app stopped behind a load balancer that polls {@code /actuator/health/readiness}: with
 * {@code khamsin.shutdown.delay}, readiness answers 503 while the server still accepts and serves new connections,
 * so that the balancer takes the instance out before its listener closes.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ShutdownDelayTests {

	@Test
	void readinessGoesDownWhileNewConnectionsAreStillServedAndThenTheListenerCloses() throws Exception {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class).run(
				"--server.port=0", "--server.address=127.0.0.1", "--khamsin.reactors=2", "--server.shutdown=graceful",
				"--khamsin.shutdown.delay=4s", "--spring.main.banner-mode=off");
		try {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			assertThat(get(port, "/actuator/health/readiness").statusCode()).isEqualTo(200);
			// Closed on a thread of its own, as Boot's shutdown hook closes it. Not on the common pool: the delay's end
			// runs there (CompletableFuture.delayedExecutor), and on JDK 25 with two cores its one worker would be
			// held by the close until Boot's phase timeout (30 s) stopped the server instead.
			CompletableFuture<Void> closed = new CompletableFuture<>();
			Thread closing = new Thread(() -> {
				context.close();
				closed.complete(null);
			}, "context-close");
			closing.start();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> get(port, "/actuator/health/readiness").statusCode() == 503);
			HttpResponse<String> plaintext = get(port, "/plaintext");
			assertThat(plaintext.statusCode()).isEqualTo(200);
			assertThat(plaintext.body()).isEqualTo("Hello, World!");
			// Long before Boot's phase timeout (30 s), which would close the listener without the delay's end.
			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertRefuses(port));
			closed.get(30, TimeUnit.SECONDS);
		}
		finally {
			context.close();
		}
	}

	// A client of its own per request: each request comes on a new connection, as a balancer's checks do.
	private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		return HttpClients.http1().send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static void assertRefuses(int port) {
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close());
	}

}
