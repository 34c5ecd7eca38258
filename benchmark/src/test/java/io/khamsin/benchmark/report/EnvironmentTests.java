package io.khamsin.benchmark.report;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EnvironmentTests {

	private static final String M2 = "/root/.m2/repository/";

	@Test
	void countsTheCpusOfALinuxCpuListNotTheRunnersAffinity() {
		assertThat(Environment.cpuCount("0-1")).isEqualTo(2);
		assertThat(Environment.cpuCount("0")).isEqualTo(1);
		assertThat(Environment.cpuCount("0-3,6,8-9\n")).isEqualTo(7);
		assertThat(Environment.cpuCount("unknown")).isZero();
	}

	@Test
	void readsVersionsFromTheJarsOfTheClasspathIncludingClassifiedOnes() {
		ClasspathVersions versions = new ClasspathVersions("/work/app/target/classes:"
				+ M2 + "io/netty/netty-transport-native-epoll/4.2.18.Final/netty-transport-native-epoll-4.2.18.Final-linux-x86_64.jar:"
				+ M2 + "io/netty/netty-common/4.2.18.Final/netty-common-4.2.18.Final.jar:"
				+ M2 + "org/springframework/boot/spring-boot-autoconfigure/4.0.7/spring-boot-autoconfigure-4.0.7.jar:"
				+ M2 + "org/springframework/boot/spring-boot/4.0.7/spring-boot-4.0.7.jar:"
				+ M2 + "org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar:"
				+ "/work/main/container/target/khamsin-container-0.1.0-SNAPSHOT.jar");

		assertThat(versions.version("netty-common")).hasValue("4.2.18.Final");
		assertThat(versions.version("netty-transport-native-epoll")).hasValue("4.2.18.Final");
		assertThat(versions.version("spring-boot")).hasValue("4.0.7");
		assertThat(versions.version("HdrHistogram")).hasValue("2.2.2");
		assertThat(versions.version("khamsin-container")).hasValue("0.1.0-SNAPSHOT");
		assertThat(versions.version("vertx-core")).isEmpty();
	}

	@Test
	void givesOneVersionWhereEveryTargetAgreesAndOnePerTargetWhereTheyDiffer() {
		Map<String, String> classpaths = new LinkedHashMap<>();
		classpaths.put("khamsin", M2 + "netty-common-4.2.18.Final.jar:" + M2 + "spring-boot-4.0.7.jar");
		classpaths.put("reactor-netty", M2 + "netty-common-4.2.18.Final.jar:" + M2 + "spring-boot-4.0.7.jar");
		classpaths.put("netty-raw", M2 + "netty-common-4.2.9.Final.jar:" + M2 + "HdrHistogram-2.2.2.jar");

		Map<String, Object> versions = Environment.versions(classpaths, M2 + "HdrHistogram-2.2.2.jar");

		assertThat(versions.get("spring-boot")).isEqualTo("4.0.7");
		assertThat(versions.get("netty")).isEqualTo(Map.of("khamsin", "4.2.18.Final", "reactor-netty", "4.2.18.Final",
				"netty-raw", "4.2.9.Final"));
		assertThat(versions.get("hdrhistogram")).isEqualTo("2.2.2");
		assertThat(versions).doesNotContainKey("tomcat");
	}

}
