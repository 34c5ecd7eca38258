package io.khamsin.container;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link KhamsinServer#prepare()}: the slow first-time work done ahead of {@code start()}, and released by
 * {@code stop()} when the server never started.
 */
@Timeout(60)
class KhamsinServerPrepareTests {

	private final HttpHandler handler = new TestRoutes(null).handler();

	@Test
	void aPreparedServerStartsOnItsPreparedReactorsAndServes() throws Exception {
		// Other servers may run meanwhile (the HTTP/2 conformance targets live for the whole run): count this one's.
		long others = reactorThreads();
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(2).build(), this.handler);
		server.prepare();
		server.prepare();
		try {
			server.start();
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/plaintext")).build(),
						HttpResponse.BodyHandlers.ofString());
			assertThat(response.body()).isEqualTo("Hello, World!");
			assertThat(reactorThreads() - others).isEqualTo(2);
		}
		finally {
			server.stop();
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> reactorThreads() == others);
	}

	@Test
	void stopReleasesWhatWasPreparedButNeverStarted() {
		long others = reactorThreads();
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(3).build(), this.handler);
		server.prepare();
		server.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> reactorThreads() == others);
		assertThat(server.isRunning()).isFalse();
		server.start();
		try {
			assertThat(server.port()).isPositive();
		}
		finally {
			server.stop();
		}
	}

	private static long reactorThreads() {
		return Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("khamsin-reactor"))
			.count();
	}

}
