package io.khamsin.container.http2.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The targets the catalogue runs against, started once for the run and stopped at its end. A new target is one
 * class and one line here. {@code -Dkhamsin.h2.conformance.targets=name,...} runs the named ones, else those that
 * {@linkplain ConformanceTarget#runsByDefault() run by default}.
 */
final class Targets implements AutoCloseable {

	private static final List<Supplier<ConformanceTarget>> ALL = List.of(NettyReferenceTarget::h2c,
			NettyReferenceTarget::h2, KhamsinTarget::h2c, KhamsinTarget::h2cOnIoUring);

	private final Map<ConformanceTarget, Object> started = new LinkedHashMap<>();

	static Targets start() {
		Targets targets = new Targets();
		String only = System.getProperty("khamsin.h2.conformance.targets", "");
		List<String> names = only.isBlank() ? List.of() : Arrays.asList(only.split(","));
		for (Supplier<ConformanceTarget> supplier : ALL) {
			ConformanceTarget target = supplier.get();
			if (names.isEmpty() ? !target.runsByDefault() : !names.contains(target.name())) {
				continue;
			}
			try {
				Endpoint endpoint = target.start();
				targets.started.put(target, endpoint);
				System.out.println("HTTP/2 conformance target " + target.name() + " at " + endpoint
						+ ", capabilities " + target.capabilities());
			}
			catch (Exception ex) {
				targets.started.put(target, ex);
				System.out.println("HTTP/2 conformance target " + target.name() + " did not start: " + ex);
			}
		}
		return targets;
	}

	List<ConformanceTarget> targets() {
		return new ArrayList<>(this.started.keySet());
	}

	/** @return where the target listens */
	Endpoint endpoint(ConformanceTarget target) {
		Object state = this.started.get(target);
		if (state instanceof Exception ex) {
			throw new IllegalStateException("The target " + target.name() + " did not start", ex);
		}
		return (Endpoint) state;
	}

	@Override
	public void close() {
		for (ConformanceTarget target : this.started.keySet()) {
			target.close();
		}
	}

}
