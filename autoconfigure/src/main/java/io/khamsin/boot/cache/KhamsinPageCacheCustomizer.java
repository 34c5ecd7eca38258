package io.khamsin.boot.cache;

import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.container.cache.DefaultPageCache;

/**
 * Hands the application's page cache to the server: the same object the application and
 * {@code /actuator/pagecache} purge. The management server, which serves no pages, does not get it.
 */
final class KhamsinPageCacheCustomizer implements WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory>, Ordered {

	private final DefaultPageCache pageCache;

	KhamsinPageCacheCustomizer(DefaultPageCache pageCache) {
		this.pageCache = pageCache;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void customize(KhamsinReactiveWebServerFactory factory) {
		factory.addConfigCustomizers((config) -> config.pageCache(this.pageCache));
	}

}
