package io.khamsin.benchmark.load;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.tls.TlsConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The HTTP/3 generator kept in one JVM from run to run: two runs against a real HTTP/3 server (khamsin with HTTP/3 on)
 * are served by the same process, a run whose connections cannot be made fails with the generator's own words and
 * leaves no process behind, and the next run starts a new one.
 */
@Timeout(120)
class H3LoadProcessTests {

	@Test
	void runsFromOneJvmUntilClosedAndStartsAnotherAfterAFailure() throws Exception {
		TestCertificates certificates = TestCertificates.create();
		KhamsinServer server = start(certificates);
		try (H3LoadProcess generator = new H3LoadProcess(0)) {
			InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
			H3Load.Result first = generator.run(address, "/plaintext", 2, 10, 1);
			long pid = generator.pid();
			H3Load.Result second = generator.run(address, "/plaintext", 2, 10, 1);
			assertThat(first.succeeded()).isPositive();
			assertThat(first.errors()).isEmpty();
			assertThat(second.succeeded()).isPositive();
			assertThat(second.errors()).isEmpty();
			assertThat(pid).isPositive().isEqualTo(generator.pid());
			server.stop();
			assertThatIllegalStateException().isThrownBy(() -> generator.run(address, "/plaintext", 1, 1, 1))
				.withMessageContaining("the HTTP/3 load failed")
				.withMessageContaining(H3Load.FAILED_PREFIX);
			assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
			assertThat(generator.pid()).isEqualTo(-1);
			server = start(certificates);
			InetSocketAddress again = new InetSocketAddress("127.0.0.1", server.port());
			assertThat(generator.run(again, "/plaintext", 1, 5, 1).succeeded()).isPositive();
			assertThat(generator.pid()).isPositive().isNotEqualTo(pid);
		}
		finally {
			server.stop();
		}
	}

	private static KhamsinServer start(TestCertificates certificates) throws Exception {
		HttpHandler handler = (request, response) -> {
			DataBuffer body = response.bufferFactory().wrap("Hello, World!".getBytes(StandardCharsets.US_ASCII));
			return response.writeWith(Mono.just(body));
		};
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.tls(TlsConfig.builder(certificates.server("localhost", "127.0.0.1").material("test")).build())
			.http3(Http3Config.builder().enabled(true).build())
			.build(), handler);
		server.start();
		return server;
	}

}
