package io.khamsin.boot.resources;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.web.WebProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webflux.autoconfigure.ResourceHandlerRegistrationCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * zstd siblings of static resources ({@code khamsin.egress.precompressed-zstd=true}), with Boot's precompressed
 * resources ({@code spring.web.resources.chain.compressed=true}); off unless both are asked for.
 */
@AutoConfiguration(afterName = "org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration")
@ConditionalOnClass(ResourceHandlerRegistrationCustomizer.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty("khamsin.egress.precompressed-zstd")
@ConditionalOnBooleanProperty("spring.web.resources.chain.compressed")
@EnableConfigurationProperties(WebProperties.class)
public final class KhamsinPrecompressedResourcesAutoConfiguration {

	@Bean
	PrecompressedResourcesCustomizer khamsinPrecompressedResourcesCustomizer(WebProperties webProperties) {
		return new PrecompressedResourcesCustomizer(webProperties.getResources());
	}

}
