package io.khamsin.benchmark.target;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The targets of {@code cache-hit-vs-render}, each the khamsin target's build (the sample app, whose
 * {@code application.yml} enables the page cache for {@code /page/**}) launched with other settings, so that the
 * one scenario prices the page cache against the render it saves and against the fixed-response path:
 * {@code khamsin} itself serves the page from its local tier; {@code khamsin-page-render} renders every request
 * (page cache off); {@code khamsin-page-fixed} answers {@code /page/1} as a fixed response of the same size; and
 * {@code khamsin-page-shared} (the {@code khamsin-redis} build, with Lettuce) keeps no page in memory and reads every
 * hit from the shared tier, on a redis-server of the run's own ({@link BenchRedis}).
 */
public final class PageCacheTargets {

	/** The scenario these targets are measured in. */
	public static final String SCENARIO = "cache-hit-vs-render";

	/** The targets, in report order. */
	public static final List<String> NAMES = List.of("khamsin-page-render", "khamsin-page-fixed",
			"khamsin-page-shared");

	/** The page cache off: every request renders. */
	public static final List<String> RENDER_ARGS = List.of("--khamsin.page-cache.enabled=false");

	/** The size of the fixed response that stands for the page: the sample's product page is about 50 KB. */
	static final int FIXED_PAGE_SIZE = 50 * 1024;

	private PageCacheTargets() {
	}

	/**
	 * Add the targets that the khamsin target's builds allow.
	 * @param found the targets so far, by name; receives these
	 * @param built the properties written by the build
	 * @param missing receives the reason for each target that is not available
	 */
	static void addTo(Map<String, TargetSpec> found, Properties built, Map<String, String> missing) {
		String classpath = built.getProperty("khamsin.classpath");
		String main = built.getProperty("khamsin.main");
		String source = built.getProperty("khamsin.source", "sample-app");
		Set<String> scenarios = Set.of(SCENARIO);
		found.put("khamsin-page-render", Targets.boot("khamsin-page-render", classpath, main, source,
				(launch) -> RENDER_ARGS, scenarios, null, Set.of(Wire.HTTP1)));
		found.put("khamsin-page-fixed", Targets.boot("khamsin-page-fixed", classpath, main, source,
				(launch) -> fixedPageArgs(), scenarios, null, Set.of(Wire.HTTP1)));
		String redisClasspath = built.getProperty("khamsin-redis.classpath");
		if (redisClasspath == null) {
			String why = built.getProperty("khamsin-redis.missing");
			missing.put("khamsin-page-shared", (why != null) ? why : "the khamsin-redis build is missing");
		}
		else if (BenchRedis.binary() == null) {
			missing.put("khamsin-page-shared", "redis-server is not installed (apt-get install redis-server)");
		}
		else {
			found.put("khamsin-page-shared", Targets.boot("khamsin-page-shared", redisClasspath, main, source,
					(launch) -> sharedArgs(BenchRedis.port(launch.runDir())), scenarios, null, Set.of(Wire.HTTP1)));
		}
	}

	/**
	 * @param redisPort the port of the run's redis-server
	 * @return the arguments of {@code khamsin-page-shared}: the shared tier on, the local tier off
	 */
	static List<String> sharedArgs(int redisPort) {
		return List.of("--khamsin.page-cache.shared.enabled=true", "--khamsin.page-cache.local-tier=false",
				"--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redisPort);
	}

	/** @return the arguments of {@code khamsin-page-fixed}: {@code /page/1} as a fixed HTML response of 50 KB */
	static List<String> fixedPageArgs() {
		List<String> args = new ArrayList<>();
		args.add("--khamsin.fixed-responses[0].path=/page/1");
		args.add("--khamsin.fixed-responses[0].content-type=text/html");
		args.add("--khamsin.fixed-responses[0].body=" + fixedPage());
		return args;
	}

	/** @return an HTML page of {@link #FIXED_PAGE_SIZE} bytes */
	static String fixedPage() {
		StringBuilder html = new StringBuilder(FIXED_PAGE_SIZE).append("<!DOCTYPE html><html><head><title>Product 1")
			.append("</title></head><body><ul>");
		for (int i = 0; html.length() < FIXED_PAGE_SIZE - 32; i++) {
			html.append("<li>Item ").append(i).append(" of the catalogue</li>");
		}
		html.append("</ul></body></html>");
		while (html.length() < FIXED_PAGE_SIZE) {
			html.append(' ');
		}
		html.setLength(FIXED_PAGE_SIZE);
		return new String(html.toString().getBytes(StandardCharsets.US_ASCII), StandardCharsets.US_ASCII);
	}

}
