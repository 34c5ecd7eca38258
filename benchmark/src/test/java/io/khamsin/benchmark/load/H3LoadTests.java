package io.khamsin.benchmark.load;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.test.TestCertificates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP/3 load generator against a real HTTP/3 server (khamsin with HTTP/3 on): its probe gets the status, a short
 * closed-loop run counts only 2xx answers and reports none failed, and the line it prints reads back the same; a paced
 * run, a new connection per request or not, counts an answer of another length than expected as failed.
 */
@Timeout(60)
class H3LoadTests {

	@Test
	void loadsAnHttp3ServerAndPrintsWhatItMeasured() throws Exception {
		TestCertificates certificates = TestCertificates.create();
		KhamsinServer server = Http3TestServer.start(certificates);
		try {
			InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
			H3Load.Answer hello = H3Load.fetch(address, "/plaintext");
			assertThat(hello.status()).isEqualTo(200);
			assertThat(new String(hello.body(), StandardCharsets.US_ASCII)).isEqualTo("Hello, World!");
			assertThat(H3Load.fetch(address, "/elsewhere").status()).isEqualTo(404);
			H3Load.Result result = H3Load.run(address, "/plaintext", 2, 20, 1);
			assertThat(result.succeeded()).isPositive();
			assertThat(result.rate()).isPositive();
			assertThat(result.errors()).isEmpty();
			assertThat(H3Load.Result.parse("warming up\n" + result + "\n")).isEqualTo(result);
			H3Load.Result notFound = H3Load.run(address, "/elsewhere", 1, 5, 1);
			assertThat(notFound.non2xx()).isPositive();
			assertThat(notFound.errors()).contains("answers not 2xx");
			H3Load.Result churn = H3Load.paced(address, "/plaintext", 1,
					new H3Load.Pacing("GET", new byte[0], 13, Duration.ofMillis(20), true), Duration.ofSeconds(1));
			assertThat(churn.succeeded()).isPositive();
			assertThat(churn.errors()).isEmpty();
			H3Load.Result posted = H3Load.paced(address, "/plaintext", 1,
					new H3Load.Pacing("POST", new byte[4096], 13, Duration.ofMillis(20), false), Duration.ofSeconds(1));
			assertThat(posted.succeeded()).isPositive();
			assertThat(posted.errors()).isEmpty();
			H3Load.Result wrongLength = H3Load.paced(address, "/plaintext", 1,
					new H3Load.Pacing("POST", new byte[4096], 12, Duration.ofMillis(20), false), Duration.ofSeconds(1));
			assertThat(wrongLength.succeeded()).isZero();
			assertThat(wrongLength.errors()).contains("requests failed");
		}
		finally {
			server.stop();
		}
	}

	@Test
	void requestsBeyondTheStreamsGrantedWaitForMoreAndAreAllAnswered() throws Exception {
		KhamsinServer server = Http3TestServer.start(TestCertificates.create(), 4);
		try {
			InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
			H3Load.Result granted = H3Load.run(address, "/plaintext", 8, 4, 2);
			H3Load.Result beyond = H3Load.run(address, "/plaintext", 8, 100, 2);
			assertThat(granted.errors()).isEmpty();
			assertThat(beyond.errors()).isEmpty();
			assertThat(beyond.succeeded()).isGreaterThan(granted.succeeded() / 2);
		}
		finally {
			server.stop();
		}
	}

}
