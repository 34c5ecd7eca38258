package io.khamsin.starter;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.khamsin.boot.KhamsinWebServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's dependencies alone make a reactive web application that runs on khamsin, with no Reactor Netty.
 */
@ExtendWith(OutputCaptureExtension.class)
class KhamsinStarterTests {

	@Test
	void aWebFluxApplicationOnTheStarterAloneRunsOnKhamsinWithoutReactorNetty(CapturedOutput output)
			throws Exception {
		assertThat(ClassUtils.isPresent("reactor.netty.http.server.HttpServer", null)).isFalse();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(HelloApplication.class)
			.properties("server.port=0", "server.address=127.0.0.1", "khamsin.reactors=1")
			.run()) {
			assertThat(context).isInstanceOf(ReactiveWebServerApplicationContext.class);
			assertThat(((ReactiveWebServerApplicationContext) context).getWebServer())
				.isInstanceOf(KhamsinWebServer.class);
			int port = ((ReactiveWebServerApplicationContext) context).getWebServer().getPort();
			assertThat(output).contains("khamsin started on port " + port);
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/hello")).build(),
						HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo("Hello, World!");
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class HelloApplication {

		@Bean
		RouterFunction<ServerResponse> hello() {
			return RouterFunctions.route()
				.GET("/hello", (request) -> ServerResponse.ok().bodyValue("Hello, World!"))
				.build();
		}

	}

}
