package io.khamsin.container.http2;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.CommandLine;
import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real HTTP/2 clients against a server with HTTP/2 on, on a plain listener: curl with prior knowledge and by
 * {@code Upgrade: h2c}, the JDK's HttpClient (which upgrades), and HTTP/1.1 on the same port.
 */
@Timeout(60)
class Http2ClientsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@TempDir
	Path dir;

	private KhamsinServer server;

	@BeforeEach
	void start() throws Exception {
		Path file = Files.writeString(this.dir.resolve("file.txt"), "file body\n");
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.http2(Http2Config.builder().enabled(true).build())
			.build(), new TestRoutes(file).handler());
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop();
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.server.port() + path;
	}

	@Test
	void curlWithPriorKnowledgeSpeaksHttp2() {
		CommandLine.assumeInstalled("curl", "curl");
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "--http2-prior-knowledge",
				"-w", "\\n%{http_version} %{http_code}", url("/plaintext"));
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.output()).isEqualTo("Hello, World!\n2 200");
	}

	@Test
	void curlUpgradesToH2c() {
		CommandLine.assumeInstalled("curl", "curl");
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "--http2",
				"-w", "\\n%{http_version} %{http_code}", url("/plaintext"));
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.output()).isEqualTo("Hello, World!\n2 200");
	}

	@Test
	void curlPostsWithPriorKnowledge() {
		CommandLine.assumeInstalled("curl", "curl");
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "--http2-prior-knowledge",
				"--data-binary", "Hello World", "-w", "\\n%{http_version} %{http_code}", url("/echo"));
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.output()).isEqualTo("Hello World\n2 200");
	}

	@Test
	void theJdkClientUpgradesToH2c() throws Exception {
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
		HttpResponse<String> first = client.send(HttpRequest.newBuilder(URI.create(url("/plaintext"))).build(),
				HttpResponse.BodyHandlers.ofString());
		HttpResponse<String> second = client.send(HttpRequest.newBuilder(URI.create(url("/echo")))
			.POST(HttpRequest.BodyPublishers.ofString("Hello World"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
		assertThat(first.body()).isEqualTo("Hello, World!");
		assertThat(second.version()).isEqualTo(HttpClient.Version.HTTP_2);
		assertThat(second.body()).isEqualTo("Hello World");
	}

	@Test
	void http11IsStillServedOnTheSamePort() {
		CommandLine.assumeInstalled("curl", "curl");
		CommandLine.Result result = CommandLine.run(null, TIMEOUT, "curl", "-sS", "--http1.1",
				"-w", "\\n%{http_version} %{http_code}", url("/plaintext"));
		assertThat(result.exitCode()).as(result.toString()).isZero();
		assertThat(result.output()).isEqualTo("Hello, World!\n1.1 200");
	}

}
