package io.khamsin.sample;

import java.nio.file.Path;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.config.ResourceHandlerRegistry;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Serves the files of {@code sample.files.dir} under {@code /files/**} through WebFlux's resource handling,
 * which writes a file resource with {@code ZeroCopyHttpOutputMessage} when the container offers it and answers
 * {@code Range} requests.
 */
@Configuration(proxyBeanMethods = false)
class StaticFilesConfiguration implements WebFluxConfigurer {

	private final Path dir;

	StaticFilesConfiguration(SampleProperties properties) {
		this.dir = properties.files().dir().toAbsolutePath().normalize();
	}

	@Override
	public void addResourceHandlers(ResourceHandlerRegistry registry) {
		registry.addResourceHandler("/files/**").addResourceLocations("file:" + this.dir + "/");
	}

}
