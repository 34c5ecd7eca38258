package io.khamsin.benchmark.load;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.test.TestCertificates;

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
		KhamsinServer server = Http3TestServer.start(certificates);
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
			server = Http3TestServer.start(certificates);
			InetSocketAddress again = new InetSocketAddress("127.0.0.1", server.port());
			assertThat(generator.run(again, "/plaintext", 1, 5, 1).succeeded()).isPositive();
			assertThat(generator.pid()).isPositive().isNotEqualTo(pid);
		}
		finally {
			server.stop();
		}
	}

}
