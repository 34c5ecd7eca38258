package io.khamsin.benchmark.target;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import io.khamsin.benchmark.scenario.Scenarios;

import static org.assertj.core.api.Assertions.assertThat;

class PageCacheTargetsTests {

	private static final TargetSpec.Launch LAUNCH = new TargetSpec.Launch(18080, Path.of("/tmp/files"),
			Path.of("/tmp/run"), List.of("-Xmx512m"));

	private static Map<String, TargetSpec> available(Properties built, Map<String, String> missing) {
		Map<String, TargetSpec> targets = new LinkedHashMap<>();
		for (TargetSpec target : Targets.available(built, "bench.jar", missing)) {
			targets.put(target.name(), target);
		}
		return targets;
	}

	private static Properties khamsinBuilt() {
		Properties built = new Properties();
		built.setProperty("khamsin.classpath", "app.jar");
		built.setProperty("khamsin.main", "io.khamsin.sample.SampleApplication");
		return built;
	}

	@Test
	void theKhamsinBuildRendersEveryPageWithThePageCacheOffAndAnswersItAsAFixedResponseOfTheSameSize() {
		Map<String, TargetSpec> targets = available(khamsinBuilt(), new LinkedHashMap<>());
		assertThat(targets.get("khamsin-page-render").command().apply(LAUNCH))
			.contains("--khamsin.page-cache.enabled=false", "--server.port=18080", "app.jar");
		List<String> fixed = targets.get("khamsin-page-fixed").command().apply(LAUNCH);
		assertThat(fixed).contains("--khamsin.fixed-responses[0].path=/page/1",
				"--khamsin.fixed-responses[0].content-type=text/html");
		String body = fixed.stream().filter((arg) -> arg.startsWith("--khamsin.fixed-responses[0].body="))
			.findFirst().orElseThrow().substring("--khamsin.fixed-responses[0].body=".length());
		assertThat(body.getBytes(StandardCharsets.US_ASCII)).hasSize(PageCacheTargets.FIXED_PAGE_SIZE);
		assertThat(IntegrityCheck.verify(Route.PAGE, 200, "text/html;charset=UTF-8",
				body.getBytes(StandardCharsets.US_ASCII)).passed()).isTrue();
		for (String name : PageCacheTargets.NAMES) {
			if (targets.containsKey(name)) {
				assertThat(targets.get(name).runsIn("cache-hit-vs-render")).isTrue();
				assertThat(targets.get(name).runsIn("status")).isFalse();
			}
		}
		assertThat(targets.get("khamsin").runsIn("cache-hit-vs-render")).as("khamsin serves the hits").isTrue();
	}

	@Test
	void theSharedTierTargetNeedsTheBuildWithLettuce() {
		Map<String, String> missing = new LinkedHashMap<>();
		assertThat(available(khamsinBuilt(), missing)).doesNotContainKey("khamsin-page-shared");
		assertThat(missing.get("khamsin-page-shared")).contains("khamsin-redis");
	}

	@Test
	void theSharedTierTargetKeepsNoPageInMemoryAndReadsRedis() {
		assertThat(PageCacheTargets.sharedArgs(6390)).containsExactly("--khamsin.page-cache.shared.enabled=true",
				"--khamsin.page-cache.local-tier=false", "--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=6390");
		Properties built = khamsinBuilt();
		built.setProperty("khamsin-redis.classpath", "app-with-redis.jar");
		Map<String, String> missing = new LinkedHashMap<>();
		Map<String, TargetSpec> targets = available(built, missing);
		if (BenchRedis.binary() == null) {
			assertThat(missing.get("khamsin-page-shared")).contains("redis-server");
		}
		else {
			assertThat(targets.get("khamsin-page-shared").classpath()).isEqualTo("app-with-redis.jar");
		}
	}

	@Test
	void theScenarioComparesOnlyThePageCachesTargetsOnTheProductPage() {
		Map<String, TargetSpec> targets = available(khamsinBuilt(), new LinkedHashMap<>());
		var scenario = Scenarios.named("cache-hit-vs-render");
		assertThat(scenario.routes()).containsExactly(Route.PAGE);
		assertThat(scenario.appliesTo(targets.get("khamsin"))).isTrue();
		assertThat(scenario.appliesTo(targets.get("khamsin-page-render"))).isTrue();
		assertThat(scenario.appliesTo(targets.get("khamsin-page-fixed"))).isTrue();
		assertThat(scenario.appliesTo(targets.get("netty-raw"))).isFalse();
		assertThat(scenario.figure()).contains("render/hit", "cpu_us_per_req");
		assertThat(IntegrityCheck.verify(Route.PAGE, 200, "text/html", "<html>".getBytes(StandardCharsets.US_ASCII))
			.passed()).as("not a page").isFalse();
	}

}
