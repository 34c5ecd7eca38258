package io.khamsin.benchmark.scenario;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.Wire;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code h3-ngtcp2} is a scenario of its own beside {@code h3}: the same route and wire, another generator.
 */
class H3Ngtcp2ScenarioTests {

	@Test
	void h3Ngtcp2IsKnownRightAfterH3OnTheHttp3WireAndTheStatusRoute() {
		Scenario scenario = Scenarios.named("h3-ngtcp2");

		assertThat(scenario.wire()).isEqualTo(Wire.H3);
		assertThat(scenario.routes()).containsExactly(Route.PLAINTEXT);
		assertThat(scenario.unit()).isEqualTo("req/s");
		assertThat(scenario.higherIsBetter()).isTrue();
		assertThat(scenario.headline()).isEqualTo("closed loop (ngtcp2 client)");
		assertThat(Scenarios.names()).containsSubsequence("h3", "h3-ngtcp2");
		assertThat(Scenarios.names().indexOf("h3-ngtcp2")).isEqualTo(Scenarios.names().indexOf("h3") + 1);
	}

	@Test
	void theFigureSaysTheGeneratorItsConnectionsAndTheRequestsOfEach() {
		assertThat(Scenarios.named("h3-ngtcp2").figure()).isEqualTo("GET /plaintext over HTTP/3 (QUIC, TLS 1.3), 16 "
				+ "connections, each as many concurrent streams as the server grants (ngtcp2's gtlsclient, one process "
				+ "per connection, 20,000 requests a connection): req/s");
		assertThat(Scenarios.named("h3").figure()).contains("Netty's HTTP/3 client");
	}

}
