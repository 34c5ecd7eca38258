package io.khamsin.sample;

import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The JDK HTTP client as the suite uses it: HTTP/1.1 only, bounded connect time.
 */
final class HttpClients {

	private HttpClients() {
	}

	static HttpClient http1() {
		return builder().build();
	}

	static HttpClient.Builder builder() {
		return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5));
	}

}
