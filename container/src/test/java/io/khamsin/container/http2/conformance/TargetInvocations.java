package io.khamsin.container.http2.conformance;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Runs each {@link ConformanceCase} once per target that has the capabilities the case {@link Requires}, with a
 * {@link Peer} for that target, and tells the {@link ConformanceReport} how each run ended and which targets a case
 * did not run against, and why.
 */
final class TargetInvocations implements TestTemplateInvocationContextProvider {

	/**
	 * Run every case against every target whatever it declares, to see which cases a target fails (and so which
	 * capabilities it lacks, or may now declare).
	 */
	static final String ALL_CASES = "khamsin.h2.conformance.all-cases";

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(TargetInvocations.class);

	@Override
	public boolean supportsTestTemplate(ExtensionContext context) {
		return context.getTestMethod().map((method) -> method.isAnnotationPresent(ConformanceCase.class)).orElse(false);
	}

	@Override
	public boolean mayReturnZeroTestTemplateInvocationContexts(ExtensionContext context) {
		// A case that no target can run yet is listed in the summary as not run, with the capabilities it waits for.
		return true;
	}

	@Override
	public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
		ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
		Targets targets = root.computeIfAbsent(Targets.class, (key) -> Targets.start(), Targets.class);
		ConformanceReport report = root.computeIfAbsent(ConformanceReport.class, (key) -> new ConformanceReport(),
				ConformanceReport.class);
		Method method = context.getRequiredTestMethod();
		CaseId id = CaseId.of(method);
		EnumSet<Capability> required = required(method);
		List<TestTemplateInvocationContext> invocations = new ArrayList<>();
		for (ConformanceTarget target : targets.targets()) {
			report.target(target.name(), target.capabilities());
			Set<Capability> missing = EnumSet.copyOf(required);
			missing.removeAll(target.capabilities());
			if (!missing.isEmpty() && !Boolean.getBoolean(ALL_CASES)) {
				report.notRun(target.name(), id, "lacks " + missing);
				continue;
			}
			invocations.add(new Invocation(target, targets, report, id));
		}
		return invocations.stream();
	}

	private static EnumSet<Capability> required(Method method) {
		Requires requires = method.getAnnotation(Requires.class);
		EnumSet<Capability> required = EnumSet.noneOf(Capability.class);
		if (requires != null) {
			required.addAll(List.of(requires.value()));
		}
		return required;
	}

	private record Invocation(ConformanceTarget target, Targets targets, ConformanceReport report,
			CaseId id) implements TestTemplateInvocationContext {

		@Override
		public String getDisplayName(int invocationIndex) {
			return "[" + this.target.name() + "] " + this.id.sentence() + " (" + this.id.rfc() + ")";
		}

		@Override
		public List<Extension> getAdditionalExtensions() {
			return List.of(new PeerResolver(this.target, this.targets), new Outcome(this.target, this.report, this.id));
		}

	}

	private record PeerResolver(ConformanceTarget target, Targets targets) implements ParameterResolver {

		@Override
		public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
			return parameter.getParameter().getType() == Peer.class;
		}

		@Override
		public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
			Peer peer = new Peer(this.target.name(), this.targets.endpoint(this.target));
			// Closed with the invocation's context, so that no case leaves a connection open.
			context.getStore(NAMESPACE).put(Peer.class, peer);
			return peer;
		}

	}

	private record Outcome(ConformanceTarget target, ConformanceReport report, CaseId id) implements TestWatcher {

		@Override
		public void testSuccessful(ExtensionContext context) {
			this.report.passed(this.target.name(), this.id);
		}

		@Override
		public void testFailed(ExtensionContext context, Throwable cause) {
			this.report.failed(this.target.name(), this.id, String.valueOf(cause.getMessage()));
		}

		@Override
		public void testAborted(ExtensionContext context, Throwable cause) {
			this.report.failed(this.target.name(), this.id, "aborted: " + cause.getMessage());
		}

		@Override
		public void testDisabled(ExtensionContext context, Optional<String> reason) {
			this.report.notRun(this.target.name(), this.id, reason.orElse("disabled"));
		}

	}

}
