package io.khamsin.actuate.endpoint;

import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.actuate.endpoint.KhamsinEndpoint.KhamsinDescriptor;
import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.container.egress.EgressMode;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/khamsin} tells what the running server does, read from the server: the protocols its listeners
 * offer, their TLS, and the egress modes they allow; nothing when khamsin does not serve the context.
 */
class KhamsinEndpointTests {

	private final KhamsinMetrics metrics = KhamsinMetrics.create(MetricsConfig.defaults());

	@Test
	void aRunningServerReportsWhatItsListenersOffer() {
		try (ReactiveWebServerApplicationContext context = new ReactiveWebServerApplicationContext()) {
			context.registerBean("webServerFactory", KhamsinReactiveWebServerFactory.class,
					() -> new KhamsinReactiveWebServerFactory(0));
			context.registerBean("httpHandler", HttpHandler.class, () -> (request, response) -> response.setComplete());
			context.refresh();
			KhamsinDescriptor khamsin = new KhamsinEndpoint(this.metrics, context).khamsin();
			assertThat(khamsin.protocols()).containsExactly("http/1.1");
			assertThat(khamsin.server().listeners()).singleElement().satisfies((listener) -> {
				assertThat(listener.port()).isEqualTo(khamsin.server().port());
				assertThat(listener.protocols()).containsExactly("http/1.1");
				assertThat(listener.tls()).isEqualTo("none");
				assertThat(listener.sockets()).isPositive();
			});
			assertThat(khamsin.tls().provider()).isEqualTo("none");
			assertThat(khamsin.tls().reason()).contains("no listener serves TLS");
			assertThat(khamsin.egress()).filteredOn(EgressMode::available)
				.extracting(EgressMode::mode)
				.containsExactly("sendfile", "userspace");
			assertThat(mode(khamsin, "sendfile").reason()).contains("on " + khamsin.server().transport());
			assertThat(mode(khamsin, "ktls").reason()).contains("no listener serves TLS");
		}
	}

	@Test
	void withoutAKhamsinServerNothingIsServed() {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.refresh();
			KhamsinDescriptor khamsin = new KhamsinEndpoint(this.metrics, context).khamsin();
			assertThat(khamsin.server()).isNull();
			assertThat(khamsin.protocols()).isEmpty();
			assertThat(khamsin.tls()).isNull();
			assertThat(khamsin.egress()).isEmpty();
		}
	}

	private static EgressMode mode(KhamsinDescriptor khamsin, String mode) {
		return khamsin.egress().stream().filter((egress) -> egress.mode().equals(mode)).findFirst().orElseThrow();
	}

}
