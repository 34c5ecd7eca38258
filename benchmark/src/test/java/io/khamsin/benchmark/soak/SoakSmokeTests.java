package io.khamsin.benchmark.soak;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.khamsin.benchmark.scenario.H2load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The soak's smoke tier, as {@code benchmark/soak} runs it: the sample app's jar (built by the reactor before this
 * module) under a minute of churn, mixed keep-alive, slow clients, uploads and downloads over HTTP/1.1, HTTP/2 and
 * HTTP/3 at once, then the gates. The gates leave room for a loaded machine: an error is an answer that is wrong or
 * never comes (late answers are awaited, {@link H1Workload#DRAIN}), the RSS is compared after a 30 s warm-up with a
 * heap touched at start, and the descriptors are awaited after every client has closed its connections.
 */
class SoakSmokeTests {

	private static final Path JAR = Path.of("../sample-app/target/khamsin-sample-app-0.1.0-SNAPSHOT.jar");

	@Test
	void aMinuteOfMixedTrafficLeavesNoErrorsFlatRssAndTheDescriptorsItFound() throws Exception {
		assumeFalse("skip".equals(System.getProperty("khamsin.soak.smoke")),
				"-Dkhamsin.soak.smoke=skip (CI's second JDK: the soak's minute runs once per CI run)");
		assumeTrue(Files.isRegularFile(JAR), "the sample app's jar is not built (mvn package -pl sample-app): " + JAR);
		assumeTrue(H2load.find() != null, "h2load is not installed (apt-get install nghttp2-client)");
		SoakSettings settings = SoakSettings.of("smoke", null, JAR, Path.of("target/soak-smoke"), freePort(), Set.of());
		SoakSummary summary = new SoakRun(settings).run();
		assertThat(summary.failures()).as("the soak's gates; see target/soak-smoke/summary.json").isEmpty();
		assertThat(summary.fields().get("requests")).as("requests answered").isNotEqualTo(0L);
		assertThat(summary.passed()).isTrue();
	}

	/** @return a port free on loopback for TCP and UDP alike, as the server takes both (HTTP/3 on UDP) */
	private static int freePort() throws IOException {
		InetAddress loopback = InetAddress.getLoopbackAddress();
		for (int attempt = 0; attempt < 100; attempt++) {
			try (ServerSocket tcp = new ServerSocket(0, 1, loopback); DatagramSocket udp = new DatagramSocket(null)) {
				udp.bind(new InetSocketAddress(loopback, tcp.getLocalPort()));
				return tcp.getLocalPort();
			}
			catch (SocketException taken) {
				// The same number was taken on UDP: try another.
			}
		}
		throw new IOException("no port free for TCP and UDP alike on " + loopback);
	}

}
