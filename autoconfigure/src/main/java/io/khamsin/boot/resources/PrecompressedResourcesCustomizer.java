package io.khamsin.boot.resources;

import java.util.List;

import org.springframework.boot.autoconfigure.web.WebProperties;
import org.springframework.boot.webflux.autoconfigure.ResourceHandlerRegistrationCustomizer;
import org.springframework.cache.Cache;
import org.springframework.cache.concurrent.ConcurrentMapCache;
import org.springframework.core.Ordered;
import org.springframework.util.Assert;
import org.springframework.web.reactive.config.ResourceChainRegistration;
import org.springframework.web.reactive.config.ResourceHandlerRegistration;
import org.springframework.web.reactive.resource.CachingResourceResolver;
import org.springframework.web.reactive.resource.CachingResourceTransformer;
import org.springframework.web.reactive.resource.EncodedResourceResolver;
import org.springframework.web.reactive.resource.VersionResourceResolver;

/**
 * Serves zstd siblings ({@code style.css.zst}) of static resources as well as Brotli and gzip ones, through Spring's
 * own {@link EncodedResourceResolver}. Boot's customizer of the resource chain
 * ({@code spring.web.resources.chain.compressed=true}) adds that resolver with its defaults, {@code br} and
 * {@code gzip}, and offers no way to extend it; this one runs after it and sets up the same chain again (cached as
 * {@code spring.web.resources.chain.cache} says, the encoded resolver, the version strategies Boot's properties ask
 * for) with resolvers that also know {@code zstd}. Of the codings a client accepts, the first it lists that has a
 * sibling is served (Spring's resolver reads no q-values). An encoded
 * sibling is a file like any other: it leaves by the same egress path (sendfile, kernel TLS), ranges apply to its
 * bytes, and response compression leaves it alone, as it already has a {@code Content-Encoding}.
 */
public class PrecompressedResourcesCustomizer implements ResourceHandlerRegistrationCustomizer, Ordered {

	/** The codings served; of those a client accepts, the first it lists that has a sibling is served. */
	static final List<String> CODINGS = List.of("br", "zstd", "gzip");

	/** The name of the chain's cache, as Spring's own registration names it. */
	private static final String CACHE_NAME = "spring-resource-chain-cache";

	private final WebProperties.Resources.Chain chain;

	public PrecompressedResourcesCustomizer(WebProperties.Resources resources) {
		Assert.notNull(resources, "'resources' must not be null");
		this.chain = resources.getChain();
	}

	/** After Boot's own customizer (which has no order, so the lowest), whose chain this one replaces. */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void customize(ResourceHandlerRegistration registration) {
		// The cache is set up here rather than by the registration: its resolver keys resolved resources by the
		// codings it knows, and one that did not know zstd would serve a zstd sibling to the next client.
		ResourceChainRegistration chain = registration.resourceChain(false);
		if (this.chain.isCache()) {
			Cache cache = new ConcurrentMapCache(CACHE_NAME);
			CachingResourceResolver caching = new CachingResourceResolver(cache);
			caching.setContentCodings(CODINGS);
			chain.addResolver(caching);
			chain.addTransformer(new CachingResourceTransformer(cache));
		}
		chain.addResolver(encodedResolver());
		VersionResourceResolver version = versionResolver(this.chain.getStrategy());
		if (version != null) {
			chain.addResolver(version);
		}
	}

	/**
	 * Spring's resolver of encoded siblings, with {@code .zst} registered for {@code zstd}.
	 * @return the resolver
	 */
	static EncodedResourceResolver encodedResolver() {
		EncodedResourceResolver resolver = new EncodedResourceResolver();
		resolver.registerExtension("zstd", ".zst");
		resolver.setContentCodings(CODINGS);
		return resolver;
	}

	/** The version strategies of {@code spring.web.resources.chain.strategy.*}, as Boot's customizer sets them. */
	private static VersionResourceResolver versionResolver(WebProperties.Resources.Chain.Strategy strategy) {
		boolean fixed = strategy.getFixed().isEnabled();
		boolean content = strategy.getContent().isEnabled();
		if (!fixed && !content) {
			return null;
		}
		VersionResourceResolver resolver = new VersionResourceResolver();
		if (fixed) {
			Assert.state(strategy.getFixed().getVersion() != null,
					"'spring.web.resources.chain.strategy.fixed.version' must be set when the fixed strategy is enabled");
			resolver.addFixedVersionStrategy(strategy.getFixed().getVersion(), strategy.getFixed().getPaths());
		}
		if (content) {
			resolver.addContentVersionStrategy(strategy.getContent().getPaths());
		}
		return resolver;
	}

}
