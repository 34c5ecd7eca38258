package io.khamsin.boot.resources;

import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.web.reactive.handler.AbstractUrlHandlerMapping;
import org.springframework.web.reactive.resource.PathResourceResolver;
import org.springframework.web.reactive.resource.ResourceResolver;
import org.springframework.web.reactive.resource.ResourceWebHandler;

/**
 * Gives every {@link ResourceWebHandler} of the application's URL handler mappings (Boot's static resources and those
 * an application registers with {@code addResourceHandlers}) a {@link StatOnceResourceResolver} in place of Spring's
 * {@link PathResourceResolver}, with the same allowed locations, and rebuilds its chain. A chain that ends in a
 * resolver of the application's own is left as it is.
 */
class StatOnceResourceHandlers implements BeanPostProcessor {

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof AbstractUrlHandlerMapping mapping) {
			for (Object handler : mapping.getHandlerMap().values()) {
				if (handler instanceof ResourceWebHandler resources) {
					statOnce(resources);
				}
			}
		}
		return bean;
	}

	static void statOnce(ResourceWebHandler handler) {
		List<ResourceResolver> resolvers = new ArrayList<>(handler.getResourceResolvers());
		boolean replaced = false;
		for (int i = 0; i < resolvers.size(); i++) {
			if (resolvers.get(i).getClass() == PathResourceResolver.class) {
				PathResourceResolver spring = (PathResourceResolver) resolvers.get(i);
				StatOnceResourceResolver resolver = new StatOnceResourceResolver();
				if (spring.getAllowedLocations() != null) {
					resolver.setAllowedLocations(spring.getAllowedLocations());
				}
				resolvers.set(i, resolver);
				replaced = true;
			}
		}
		if (!replaced) {
			return;
		}
		handler.setResourceResolvers(resolvers);
		try {
			handler.afterPropertiesSet();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not rebuild the resource chain of " + handler, ex);
		}
	}

}
