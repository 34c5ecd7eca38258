package io.khamsin.benchmark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.khamsin.benchmark.target.TargetSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BenchOptionsTests {

	@Test
	void aVariantNamesItsBaseAndItsArguments() {
		Bench.Options options = Bench.Options.parse(new String[] { "--variant",
				"khamsin-epoll=khamsin:--khamsin.transport=epoll  --khamsin.listener=shared", "--variant",
				"rn-2=reactor-netty:--server.netty.idle-timeout=1s" });

		assertThat(options.variants).containsExactly(
				Map.entry("khamsin-epoll", List.of("khamsin", "--khamsin.transport=epoll", "--khamsin.listener=shared")),
				Map.entry("rn-2", List.of("reactor-netty", "--server.netty.idle-timeout=1s")));
	}

	@Test
	void aVariantWithoutArgumentsIsRefusedWithTheExpectedForm() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Bench.Options.parse(new String[] { "--variant", "khamsin-epoll=khamsin" }))
			.withMessageContaining("expected NAME=BASE:ARG");
	}

	@Test
	void aVariantGoesRightAfterItsBaseOrSaysWhyItDoesNotRun() {
		List<TargetSpec> targets = new ArrayList<>(List.of(boot("khamsin"), boot("reactor-netty")));
		Map<String, List<String>> variants = new LinkedHashMap<>();
		variants.put("khamsin-epoll", List.of("khamsin", "--khamsin.transport=epoll"));
		variants.put("tomcat-2", List.of("tomcat", "--server.tomcat.threads.max=4"));
		Map<String, String> unavailable = new LinkedHashMap<>();
		unavailable.put("tomcat", "not built");

		Bench.addVariants(targets, variants, unavailable);

		assertThat(targets).extracting(TargetSpec::name).containsExactly("khamsin", "khamsin-epoll", "reactor-netty");
		assertThat(unavailable).containsEntry("tomcat-2", "needs its base tomcat: not built");
	}

	private static TargetSpec boot(String name) {
		return new TargetSpec(name, true, (launch) -> List.of("java", "-cp", "app.jar", "Main"),
				"the sample app (sample-app) on " + name, "app.jar", Set.of());
	}

}
