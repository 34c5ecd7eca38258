package io.khamsin.container;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Every fuzz target of the container in one, for the bounded fuzzing of each build: Jazzer fuzzes one
 * {@code @FuzzTest} per JVM, and each JVM pays for its agent (seconds, on a busy machine), so the build's
 * {@code fuzz} execution of Surefire runs this one with {@code JAZZER_FUZZ=1}, and the last byte of each input
 * chooses the target that reads the rest. A finding fails the build as the target's own assertion would;
 * {@code benchmark/fuzz} fuzzes the targets one by one for longer.
 */
class BoundedFuzzTests {

	private static final List<Target> TARGETS = List.of(
			new Target("http1.Http1RequestHeadFuzzTests",
					"anyBytesAreAnsweredWithWellFormedResponsesOrACloseAndLeaveNothingHeld"),
			new Target("forwarded.ForwardedHeadersFuzzTests", "anyForwardedHeadersGiveAnOriginARequestUriCanBeBuiltFrom"),
			new Target("forwarded.ForwardedHeadersFuzzTests",
					"forwardedElementsAreParsedLeftToRightIntoValuesWithoutSeparators"),
			new Target("forwarded.TrustedProxiesFuzzTests", "anEntryIsRefusedOrTrustsTheAddressItWasWrittenWith"),
			new Target("compression.AcceptEncodingFuzzTests",
					"anyHeaderIsAnsweredWithIdentityOrAnOfferedCodingTheClientNamed"),
			new Target("compression.AcceptEncodingFuzzTests", "wellFormedElementsAreAnsweredByTheirQValues"),
			new Target("cache.CacheKeysFuzzTests", "aLookedUpRequestHasAPageKeyThatNamesItsPageAlone"),
			new Target("cache.CacheKeysFuzzTests", "cacheControlOfAnyContentGivesDeltaSecondsWithinBounds"),
			new Target("accesslog.AccessLogFormatFuzzTests",
					"anyFormatIsRefusedWithItsDirectiveNamedOrFormatsEveryEntry"));

	@FuzzTest(maxDuration = "30s")
	void everyTargetHoldsItsProperties(FuzzedDataProvider data) throws Throwable {
		TARGETS.get(data.consumeInt(0, TARGETS.size() - 1)).run(data);
	}

	private static final class Target {

		private final Constructor<?> constructor;

		private final Method method;

		Target(String type, String method) {
			try {
				Class<?> target = Class.forName(BoundedFuzzTests.class.getPackageName() + "." + type);
				this.constructor = target.getDeclaredConstructor();
				this.constructor.setAccessible(true);
				this.method = target.getDeclaredMethod(method, FuzzedDataProvider.class);
				this.method.setAccessible(true);
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("No fuzz target " + type + "#" + method, ex);
			}
		}

		void run(FuzzedDataProvider data) throws Throwable {
			try {
				this.method.invoke(this.constructor.newInstance(), data);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		}

	}

}
