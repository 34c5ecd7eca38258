package io.khamsin.container.engine;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.test.TestRoutes;
import io.khamsin.container.transport.ListenerMode;
import io.khamsin.container.transport.PortInUseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A port that another server listens on is in use, even when both would listen with SO_REUSEPORT: a second
 * application started on the same port by mistake fails at start instead of taking part of the first one's
 * connections. An address that this machine does not have is not a port in use.
 */
@Timeout(60)
class PortClaimTests {

	private final HttpHandler handler = new TestRoutes(null).handler();

	@Test
	void aSecondServerOnTheSamePortFailsAndTheFirstKeepsEveryConnection() throws Exception {
		KhamsinServer first = KhamsinServer.create(KhamsinServerConfig.builder().reactors(2).build(), this.handler);
		first.start();
		try {
			for (ListenerMode mode : ListenerMode.values()) {
				KhamsinServer second = KhamsinServer.create(
						KhamsinServerConfig.builder().port(first.port()).reactors(2).listener(mode).build(),
						this.handler);
				assertThatExceptionOfType(PortInUseException.class).isThrownBy(second::start)
					.satisfies((ex) -> assertThat(ex.getPort()).isEqualTo(first.port()));
				second.stop();
			}
			HttpClient client = HttpClient.newHttpClient();
			for (int i = 0; i < 10; i++) {
				HttpResponse<String> response = client.send(HttpRequest
					.newBuilder(URI.create("http://127.0.0.1:" + first.port() + "/plaintext")).build(),
						HttpResponse.BodyHandlers.ofString());
				assertThat(response.body()).isEqualTo("Hello, World!");
			}
		}
		finally {
			first.stop();
		}
	}

	@Test
	void anAddressThisMachineDoesNotHaveIsNotReportedAsAPortInUse() throws Exception {
		// TEST-NET-1 (RFC 5737): reserved for documentation, so no interface of this machine has it.
		InetAddress unassigned = InetAddress.getByName("192.0.2.1");
		for (ListenerMode mode : ListenerMode.values()) {
			for (int port : new int[] { 0, 8080 }) {
				KhamsinServer server = KhamsinServer.create(
						KhamsinServerConfig.builder().address(unassigned).port(port).reactors(2).listener(mode).build(),
						this.handler);
				assertThatIllegalStateException().as("%s on port %d", mode, port)
					.isThrownBy(server::start)
					.isNotInstanceOf(PortInUseException.class)
					.withMessageContaining("khamsin could not bind")
					.withMessageContaining("192.0.2.1");
				server.stop();
			}
		}
	}

}
