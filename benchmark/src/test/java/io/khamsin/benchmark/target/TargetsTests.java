package io.khamsin.benchmark.target;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TargetsTests {

	private static final TargetSpec.Launch LAUNCH = new TargetSpec.Launch(18080, Path.of("/tmp/files"),
			Path.of("/tmp/run"), List.of("-Xmx512m"));

	@Test
	void theKhamsinBuildAlsoGivesTheVariantsThatPriceOneFeatureEach() {
		Properties built = khamsinBuilt();

		Map<String, TargetSpec> targets = byName(Targets.available(built, "bench.jar", new LinkedHashMap<>()));

		assertThat(targets.get("khamsin-no-metrics").command().apply(LAUNCH)).contains("--khamsin.metrics.enabled=false")
			.contains("--server.port=18080");
		assertThat(targets.get("khamsin-access-log").command().apply(LAUNCH)).contains(
				"--khamsin.access-log.enabled=true", "--khamsin.access-log.destination=/tmp/files/access-18080.log");
		assertThat(targets.get("khamsin").command().apply(LAUNCH)).noneMatch((arg) -> arg.startsWith("--khamsin.metrics")
				|| arg.startsWith("--khamsin.access-log") || arg.startsWith("--khamsin.fixed-responses"));
		assertThat(targets.get("khamsin-no-metrics").runsIn("cpu-fixed-rate")).isTrue();
		assertThat(targets.get("khamsin-access-log").runsIn("status")).isFalse();
		assertThat(List.copyOf(targets.keySet())).startsWith("khamsin", "khamsin-fixed", "khamsin-no-metrics",
				"khamsin-access-log");
	}

	@Test
	void reactorNettyOnIoUringIsBootsDefaultContainerThatMustBeSeenOnIoUring() {
		Properties built = new Properties();
		for (String name : List.of("reactor-netty", "reactor-netty-iouring")) {
			built.setProperty(name + ".classpath", name + ".jar");
			built.setProperty(name + ".main", "io.khamsin.sample.SampleApplication");
		}

		Map<String, TargetSpec> targets = byName(Targets.available(built, "bench.jar", new LinkedHashMap<>()));

		assertThat(targets.get("reactor-netty-iouring").transport()).isEqualTo("io_uring");
		assertThat(targets.get("reactor-netty-iouring").description()).contains("netty-transport-native-io_uring");
		assertThat(targets.get("reactor-netty-iouring").command().apply(LAUNCH)).contains("reactor-netty-iouring.jar",
				"--server.port=18080");
		assertThat(targets.get("reactor-netty").transport()).isNull();
		assertThat(targets.get("reactor-netty").description()).contains("epoll, as Boot ships it");
		assertThat(List.copyOf(targets.keySet())).containsSubsequence("reactor-netty", "reactor-netty-iouring",
				"netty-raw");
	}

	@Test
	void aTlsOrHttp2LaunchGivesBootItsOwnServerSslAndHttp2Settings() {
		Properties built = khamsinBuilt();
		TlsFiles tls = new TlsFiles(Path.of("/tmp/tls/cert.pem"), Path.of("/tmp/tls/key.pem"));

		TargetSpec khamsin = byName(Targets.available(built, "bench.jar", new LinkedHashMap<>())).get("khamsin");

		assertThat(khamsin.command().apply(launch(Wire.H2, tls))).contains(
				"--server.ssl.certificate=/tmp/tls/cert.pem", "--server.ssl.certificate-private-key=/tmp/tls/key.pem",
				"--server.http2.enabled=true");
		assertThat(khamsin.command().apply(launch(Wire.H2C, null))).contains("--server.http2.enabled=true")
			.noneMatch((arg) -> arg.startsWith("--server.ssl"));
		assertThat(khamsin.command().apply(LAUNCH)).noneMatch((arg) -> arg.startsWith("--server.ssl")
				|| arg.startsWith("--server.http2"));
		assertThat(Targets.wiresOf("tomcat")).containsExactlyInAnyOrder(Wire.HTTP1, Wire.HTTPS);
	}

	@Test
	void theFastPathIsMeasuredOverHttp2TooWithItsFixedResponseAndBootsHttp2Setting() {
		Properties built = khamsinBuilt();
		TlsFiles tls = new TlsFiles(Path.of("/tmp/tls/cert.pem"), Path.of("/tmp/tls/key.pem"));

		TargetSpec fixed = byName(Targets.available(built, "bench.jar", new LinkedHashMap<>())).get("khamsin-fixed");

		assertThat(fixed.runsIn("h2-streams")).isTrue();
		assertThat(fixed.runsIn("h2-streams-tls")).isTrue();
		assertThat(fixed.runsIn("json")).isFalse();
		assertThat(fixed.wires()).contains(Wire.H2C, Wire.H2);
		assertThat(fixed.command().apply(launch(Wire.H2, tls))).contains("--server.http2.enabled=true",
				"--server.ssl.certificate=/tmp/tls/cert.pem", "--khamsin.fixed-responses[0].path=/plaintext");
	}

	@Test
	void onTheHttp3WireKhamsinAndReactorNettyAreAskedForHttp3OverTheirTlsAndTheOthersAreNotMeasured() {
		Properties built = khamsinBuilt();
		TlsFiles tls = new TlsFiles(Path.of("/tmp/tls/cert.pem"), Path.of("/tmp/tls/key.pem"));

		Map<String, TargetSpec> targets = byName(Targets.available(built, "bench.jar", new LinkedHashMap<>()));

		assertThat(targets.get("khamsin").command().apply(launch(Wire.H3, tls))).contains(
				"--server.ssl.certificate=/tmp/tls/cert.pem", "--khamsin.http3.enabled=true", "--bench.http3=true")
			.noneMatch((arg) -> arg.startsWith("--server.http2"));
		assertThat(targets.get("khamsin-fixed").runsIn("h3")).isTrue();
		assertThat(targets.get("khamsin-fixed").runsIn("h3-ngtcp2")).isTrue();
		assertThat(targets.get("khamsin-fixed").wires()).contains(Wire.H3);
		assertThat(Targets.wiresOf("reactor-netty")).contains(Wire.H3);
		assertThat(Targets.wiresOf("reactor-netty-iouring")).doesNotContain(Wire.H3);
		assertThat(Targets.wiresOf("tomcat")).doesNotContain(Wire.H3);
		assertThat(targets.get("netty-raw").wires()).doesNotContain(Wire.H3);
	}

	@Test
	void nginxListensWithTlsAndHttp2AsItsLaunchSpeaks(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
		TlsFiles tls = new TlsFiles(dir.resolve("cert.pem"), dir.resolve("key.pem"));
		TargetSpec nginx = new TargetSpec("nginx", false, Targets::nginx, "nginx", "", java.util.Set.of(), null,
				java.util.Set.of(Wire.values()));

		nginx.command().apply(new TargetSpec.Launch(18443, dir, dir, List.of(), Wire.H2, tls));
		String conf = java.nio.file.Files.readString(dir.resolve("nginx-18443/nginx.conf"));

		assertThat(conf).contains("listen 127.0.0.1:18443 backlog=1024 ssl http2;")
			.contains("ssl_certificate " + dir.resolve("cert.pem")).contains("ssl_session_tickets on;");
		nginx.command().apply(new TargetSpec.Launch(18080, dir, dir, List.of()));
		assertThat(java.nio.file.Files.readString(dir.resolve("nginx-18080/nginx.conf")))
			.contains("listen 127.0.0.1:18080 backlog=1024;").doesNotContain("ssl_certificate");
	}

	/** @return what benchmark/bench writes after building the khamsin target */
	private static Properties khamsinBuilt() {
		Properties built = new Properties();
		built.setProperty("khamsin.classpath", "app.jar");
		built.setProperty("khamsin.main", "io.khamsin.sample.SampleApplication");
		return built;
	}

	private static TargetSpec.Launch launch(Wire wire, TlsFiles tls) {
		return new TargetSpec.Launch(18080, Path.of("/tmp/files"), Path.of("/tmp/run"), List.of("-Xmx512m"), wire, tls);
	}

	@Test
	void aBaselineBuildIsTheKhamsinTargetOfAnotherCommitRightAfterKhamsin() {
		Properties built = khamsinBuilt();
		built.setProperty("khamsin-before.classpath", "before.jar");
		built.setProperty("khamsin-before.main", "io.khamsin.sample.SampleApplication");
		built.setProperty("khamsin-before.commit", "4b2a7d2");

		Map<String, TargetSpec> targets = byName(Targets.available(built, "bench.jar", new LinkedHashMap<>()));

		assertThat(List.copyOf(targets.keySet())).startsWith("khamsin", "khamsin-before");
		assertThat(targets.get("khamsin-before").description()).contains("commit 4b2a7d2");
		assertThat(targets.get("khamsin-before").command().apply(LAUNCH)).contains("before.jar", "--server.port=18080");
		Map<String, String> missing = new LinkedHashMap<>();
		built.remove("khamsin-before.classpath");
		built.setProperty("khamsin-before.missing", "no commit nope");
		assertThat(byName(Targets.available(built, "bench.jar", missing))).doesNotContainKey("khamsin-before");
		assertThat(missing).containsEntry("khamsin-before", "no commit nope");
	}

	@Test
	void withoutTheKhamsinBuildEachVariantSaysWhatItNeeds() {
		Map<String, String> missing = new LinkedHashMap<>();

		Map<String, TargetSpec> targets = byName(Targets.available(new Properties(), "bench.jar", missing));

		assertThat(targets).doesNotContainKeys("khamsin", "khamsin-fixed", "khamsin-no-metrics", "khamsin-access-log");
		assertThat(missing.get("khamsin-access-log")).startsWith("needs the khamsin target's build");
		assertThat(missing.get("khamsin-no-metrics")).startsWith("needs the khamsin target's build");
	}

	@Test
	void aVariantIsItsBaseWithMoreSpringBootArgumentsInTheSameScenarios() {
		Properties built = khamsinBuilt();
		TargetSpec fixed = byName(Targets.available(built, "bench.jar", new LinkedHashMap<>())).get("khamsin-fixed");

		TargetSpec variant = Targets.variant(fixed, "khamsin-fixed-epoll", List.of("--khamsin.transport=epoll"));

		assertThat(variant.command().apply(LAUNCH)).startsWith(fixed.command().apply(LAUNCH).toArray(new String[0]))
			.endsWith("--khamsin.transport=epoll");
		assertThat(variant.runsIn("cpu-fixed-rate")).isTrue();
		assertThat(variant.runsIn("json")).isFalse();
		assertThat(variant.description()).endsWith("with --khamsin.transport=epoll");
	}

	@Test
	void theBaselineTakesVariantsSoThatBothCommitsCanBeMeasuredOnEachTransport() {
		Properties built = khamsinBuilt();
		built.setProperty("khamsin-before.classpath", "before.jar");
		built.setProperty("khamsin-before.main", "io.khamsin.sample.SampleApplication");
		TargetSpec before = byName(Targets.available(built, "bench.jar", new LinkedHashMap<>())).get("khamsin-before");

		TargetSpec variant = Targets.variant(before, "khamsin-before-epoll", List.of("--khamsin.transport=epoll"));

		assertThat(variant.command().apply(LAUNCH)).contains("before.jar").endsWith("--khamsin.transport=epoll");
	}

	@Test
	void aVariantNeedsASpringBootBaseAndANameOfItsOwn() {
		Map<String, TargetSpec> targets = byName(Targets.available(new Properties(), "bench.jar", new LinkedHashMap<>()));

		assertThatIllegalArgumentException()
			.isThrownBy(() -> Targets.variant(targets.get("netty-raw"), "netty-raw-2", List.of("--a=b")))
			.withMessageContaining("not a Spring Boot target");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Targets.variant(targets.get("netty-raw"), "vertx", List.of("--a=b")))
			.withMessageContaining("built-in target");
	}

	private static Map<String, TargetSpec> byName(List<TargetSpec> targets) {
		Map<String, TargetSpec> byName = new LinkedHashMap<>();
		targets.forEach((target) -> byName.put(target.name(), target));
		return byName;
	}

}
