package io.khamsin.boot.resources;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.resource.ResourceWebHandler;

/**
 * One {@code stat} per request for the files Spring's resource handling serves from the file system
 * ({@code khamsin.egress.stat-once}, on unless turned off), where khamsin is the server.
 */
@AutoConfiguration
@ConditionalOnClass(ResourceWebHandler.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnBooleanProperty(name = "khamsin.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "khamsin.egress.stat-once", matchIfMissing = true)
public final class KhamsinStatOnceAutoConfiguration {

	@Bean
	static StatOnceResourceHandlers khamsinStatOnceResourceHandlers() {
		return new StatOnceResourceHandlers();
	}

}
