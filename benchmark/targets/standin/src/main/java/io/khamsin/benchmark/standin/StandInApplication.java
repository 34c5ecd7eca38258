package io.khamsin.benchmark.standin;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * A stand-in with the benchmark routes of the sample app, used by {@code benchmark/bench} only while
 * {@code sample-app/} has no sources: {@code GET /plaintext}, {@code POST /json} (echoes the JSON object) and
 * {@code GET /files/**} (static files from {@code sample.files.dir}, see application.properties).
 */
@SpringBootApplication
public class StandInApplication {

	private static final ParameterizedTypeReference<LinkedHashMap<String, Object>> JSON_OBJECT =
			new ParameterizedTypeReference<>() {
			};

	public static void main(String[] args) {
		SpringApplication.run(StandInApplication.class, args);
	}

	@Bean
	RouterFunction<ServerResponse> benchmarkRoutes() {
		return RouterFunctions.route()
			.GET("/plaintext",
					(request) -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).bodyValue("Hello, World!"))
			.POST("/json", (request) -> request.bodyToMono(JSON_OBJECT)
				.flatMap((Map<String, Object> body) -> ServerResponse.ok()
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue(body)))
			.build();
	}

}
