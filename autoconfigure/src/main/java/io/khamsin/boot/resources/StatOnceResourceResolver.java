package io.khamsin.boot.resources;

import java.io.IOException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.FileUrlResource;
import org.springframework.core.io.Resource;
import org.springframework.web.reactive.resource.PathResourceResolver;
import org.springframework.web.reactive.resource.ResourceHandlerUtils;

/**
 * Spring's {@link PathResourceResolver}, resolving a request's path in a file-system location to a
 * {@link StatOnceResource}: one {@code stat} answers whether it is a readable file and, for the rest of the request,
 * its length and date. The resource is resolved and checked against its locations exactly as Spring's resolver
 * does; locations that are not plain files ({@code classpath:}, URLs) are left to it.
 */
class StatOnceResourceResolver extends PathResourceResolver {

	private static final Log logger = LogFactory.getLog(StatOnceResourceResolver.class);

	@Override
	protected Mono<Resource> getResource(String resourcePath, Resource location) {
		// A path ending in a slash names, in Spring's resolver, a file whose name is empty (a directory is not
		// readable): left to it, as are locations that are not plain files (classpath:, URLs).
		if (resourcePath.endsWith("/")
				|| !(location instanceof FileUrlResource || location.getClass() == FileSystemResource.class)) {
			return super.getResource(resourcePath, location);
		}
		try {
			Resource relative = ResourceHandlerUtils.createRelativeResource(location, resourcePath);
			StatOnceResource resource = new StatOnceResource(relative.getFile().toPath());
			if (!resource.isReadable()) {
				return Mono.empty();
			}
			if (checkResource(relative, location)) {
				return Mono.just(resource);
			}
			if (logger.isWarnEnabled()) {
				logger.warn("Resource path \"" + resourcePath + "\" was resolved but " + relative
						+ " is neither under the current location \"" + location
						+ "\" nor under any of the allowed locations");
			}
			return Mono.empty();
		}
		catch (IOException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Failure checking resource under location " + location + ": " + ex.getMessage());
			}
			return Mono.error(ex);
		}
	}

}
