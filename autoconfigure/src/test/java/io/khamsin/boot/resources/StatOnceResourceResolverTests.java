package io.khamsin.boot.resources;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.core.io.FileUrlResource;
import org.springframework.core.io.Resource;
import org.springframework.web.reactive.resource.EncodedResourceResolver;
import org.springframework.web.reactive.resource.PathResourceResolver;
import org.springframework.web.reactive.resource.ResourceResolver;
import org.springframework.web.reactive.resource.ResourceWebHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The resolver that takes a file's attributes by one {@code stat} answers what Spring's own resolver answers, for
 * the same paths and locations, and sees a file that changed once its millisecond is over.
 */
class StatOnceResourceResolverTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	@TempDir
	Path root;

	private List<Resource> locations;

	@BeforeEach
	void files() throws Exception {
		Path served = Files.createDirectories(this.root.resolve("served"));
		Files.writeString(served.resolve("site.css"), "body { color: teal }");
		Files.setLastModifiedTime(served.resolve("site.css"), FileTime.from(Instant.parse("2026-01-02T03:04:05Z")));
		Files.createDirectories(served.resolve("docs"));
		Files.writeString(served.resolve("docs/readme.txt"), "read me");
		Files.writeString(this.root.resolve("secret.txt"), "not for the web");
		this.locations = List.of(new FileUrlResource(served.toUri().toURL()));
	}

	@ParameterizedTest
	@ValueSource(strings = { "site.css", "docs/readme.txt", "docs", "docs/", "missing.css", "../secret.txt",
			"docs/../site.css", "docs/%2e%2e/site.css", "site.css/" })
	void answersWhatSpringsResolverAnswers(String path) throws Exception {
		Resource spring = resolve(new PathResourceResolver(), path);
		Resource statOnce = resolve(new StatOnceResourceResolver(), path);
		assertThat(statOnce == null).as("resolved by one and not the other").isEqualTo(spring == null);
		if (spring != null) {
			// A path ending in a slash is left to Spring's resolver, which resolves it to a file with no name.
			assertThat(statOnce instanceof StatOnceResource).isEqualTo(!path.endsWith("/"));
			assertThat(statOnce.getFile()).isEqualTo(spring.getFile());
			assertThat(statOnce.isReadable()).isEqualTo(spring.isReadable());
			assertThat(statOnce.exists()).isEqualTo(spring.exists());
			assertThat(statOnce.contentLength()).isEqualTo(spring.contentLength());
			assertThat(statOnce.lastModified()).isEqualTo(spring.lastModified());
			assertThat(statOnce.getFilename()).isEqualTo(spring.getFilename());
			assertThat(statOnce.getContentAsByteArray()).isEqualTo(spring.getContentAsByteArray());
		}
	}

	@Test
	void aSiblingMadeByTheEncodedResolverIsReadTheSameWay() throws Exception {
		Files.writeString(this.root.resolve("served/site.css.gz"), "gzipped");
		Resource css = resolve(new StatOnceResourceResolver(), "site.css");
		Resource gz = css.createRelative("site.css.gz");
		assertThat(gz).isInstanceOf(StatOnceResource.class);
		assertThat(gz.exists()).isTrue();
		assertThat(gz.contentLength()).isEqualTo(7);
		assertThat(css.createRelative("site.css.br").exists()).isFalse();
	}

	@Test
	void aResourceKeptAcrossRequestsSeesTheFileChangeOnceItsMillisecondIsOver() throws Exception {
		Resource css = resolve(new StatOnceResourceResolver(), "site.css");
		assertThat(css.contentLength()).isEqualTo(20);
		Files.writeString(this.root.resolve("served/site.css"), "body { color: rebeccapurple }");
		Thread.sleep(5);
		assertThat(css.contentLength()).isEqualTo(29);
		assertThat(css.lastModified()).isGreaterThan(Instant.parse("2026-01-02T03:04:05Z").toEpochMilli());
		Files.delete(this.root.resolve("served/site.css"));
		Thread.sleep(5);
		assertThat(css.exists()).isFalse();
		assertThat(css.isReadable()).isFalse();
	}

	@Test
	void aResourceHandlersPathResolverIsReplacedAndItsOthersKept() throws Exception {
		ResourceWebHandler handler = new ResourceWebHandler();
		handler.setLocations(this.locations);
		EncodedResourceResolver encoded = new EncodedResourceResolver();
		handler.setResourceResolvers(List.of(encoded, new PathResourceResolver()));
		handler.afterPropertiesSet();
		StatOnceResourceHandlers.statOnce(handler);
		List<ResourceResolver> resolvers = handler.getResourceResolvers();
		assertThat(resolvers).hasSize(2).first().isSameAs(encoded);
		assertThat(resolvers.get(1)).isInstanceOf(StatOnceResourceResolver.class);
		assertThat(((PathResourceResolver) resolvers.get(1)).getAllowedLocations())
			.containsExactlyElementsOf(this.locations);
	}

	private Resource resolve(PathResourceResolver resolver, String path) {
		resolver.setAllowedLocations(this.locations.toArray(new Resource[0]));
		return resolver.resolveResource(null, path, this.locations, null).block(TIMEOUT);
	}

}
