package io.khamsin.sample;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The HTTP routes of the sample app as WebFlux functional endpoints. {@code /plaintext} is the annotated
 * {@link PlaintextController}; static files and the WebSocket echo are mapped by {@link StaticFilesConfiguration}
 * and {@link EchoWebSocketConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
class SampleRoutes {

	@Bean
	RouterFunction<ServerResponse> routes(OrderHandler orders, UploadHandler uploads, TickHandler ticks,
			PageHandler pages) {
		return RouterFunctions.route()
			.POST("/json", orders::confirm)
			.POST("/upload", uploads::digest)
			.POST("/upload/parts", uploads::parts)
			.GET("/sse", ticks::stream)
			.GET("/page/{id}", pages::render)
			.build();
	}

	@Bean
	OrderHandler orderHandler() {
		return new OrderHandler();
	}

	@Bean
	UploadHandler uploadHandler() {
		return new UploadHandler();
	}

	@Bean
	TickHandler tickHandler() {
		return new TickHandler();
	}

	@Bean
	PageHandler pageHandler(SampleProperties properties) {
		return new PageHandler(properties.page());
	}

}
