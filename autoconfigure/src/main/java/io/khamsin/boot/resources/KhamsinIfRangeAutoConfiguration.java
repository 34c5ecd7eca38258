package io.khamsin.boot.resources;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.server.WebFilter;

/**
 * {@code If-Range} for every handler that answers ranges, Spring's resource handling included
 * ({@code khamsin.egress.if-range}, on unless turned off), where khamsin is the server.
 */
@AutoConfiguration
@ConditionalOnClass(WebFilter.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "khamsin.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "khamsin.egress.if-range", matchIfMissing = true)
public final class KhamsinIfRangeAutoConfiguration {

	@Bean
	IfRangeWebFilter khamsinIfRangeWebFilter() {
		return new IfRangeWebFilter();
	}

}
