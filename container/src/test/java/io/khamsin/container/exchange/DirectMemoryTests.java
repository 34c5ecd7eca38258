package io.khamsin.container.exchange;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which failures of a handler are an allocation that found the direct-memory limit reached.
 */
class DirectMemoryTests {

	private static final String JDK_MESSAGE = "Cannot reserve 33554432 bytes of direct buffer memory (allocated: "
			+ "38543417, limit: 50331648)";

	@Test
	void theJdksDirectBufferLimitIsExhaustion() {
		assertThat(DirectMemory.exhausted(new OutOfMemoryError(JDK_MESSAGE))).isTrue();
	}

	@Test
	void exhaustionWrappedByTheHandlerIsStillExhaustion() {
		Throwable wrapped = new IllegalStateException("encoding failed", new OutOfMemoryError(JDK_MESSAGE));
		assertThat(DirectMemory.exhausted(wrapped)).isTrue();
	}

	@Test
	void aFullHeapOrAnotherFailureIsNot() {
		assertThat(DirectMemory.exhausted(new OutOfMemoryError("Java heap space"))).isFalse();
		assertThat(DirectMemory.exhausted(new OutOfMemoryError())).isFalse();
		assertThat(DirectMemory.exhausted(new IllegalStateException("boom"))).isFalse();
	}

}
