package io.khamsin.container.transport;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;

/**
 * Started in a JVM of its own by {@link TransportTests}, with a classpath or system properties that take native
 * transports away: serves one request on {@code khamsin.transport=auto} and prints what it ran on.
 */
final class TransportFallbackProbe {

	private TransportFallbackProbe() {
	}

	public static void main(String[] args) throws Exception {
		byte[] ok = "ok".getBytes(StandardCharsets.US_ASCII);
		HttpHandler handler = (request, response) -> response.writeWith(Mono.just(response.bufferFactory().wrap(ok)));
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder().reactors(1).build(), handler);
		server.start();
		try {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/")).build(),
						HttpResponse.BodyHandlers.ofString());
			System.out.println("served " + response.body() + " on " + server.transport().name() + " ("
					+ server.listenerMode().displayName() + ")");
		}
		finally {
			server.stop();
		}
	}

}
