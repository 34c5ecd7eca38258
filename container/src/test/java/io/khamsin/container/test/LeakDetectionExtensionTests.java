package io.khamsin.container.test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * Tests for {@link LeakDetectionExtension}: a leak must fail the class that caused it, or the next one when the
 * detector reports it late, never be dropped.
 */
class LeakDetectionExtensionTests {

	@Test
	void aLeakedBufferFailsTheTestClass() {
		LeakDetectionExtension extension = new LeakDetectionExtension();
		ExtensionContext context = context("leaky");
		extension.beforeAll(context);
		leak();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> extension.afterAll(context))
			.withMessageContaining("leak");
	}

	@Test
	void aLeakReportedAfterItsClassEndedFailsTheNextClassAndNamesTheOneBefore() {
		LeakDetectionExtension extension = new LeakDetectionExtension();
		ExtensionContext first = context("FirstTests");
		ExtensionContext second = context("SecondTests");
		extension.beforeAll(first);
		extension.afterAll(first);
		// As the detector reports a buffer of the first class that was collected only after that class ended.
		LeakDetectionExtension.record("ByteBuf", "late report");
		extension.beforeAll(second);
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> extension.afterAll(second))
			.withMessageContaining("late report")
			.withMessageContaining("after FirstTests ended");
	}

	@Test
	void reportsSinceAMarkAreThoseMadeAfterIt() {
		LeakDetectionExtension.record("ByteBuf", "before the mark");
		int mark = LeakDetectionExtension.mark();
		LeakDetectionExtension.record("ByteBuf", "after the mark");
		assertThat(LeakDetectionExtension.reportsSince(mark)).singleElement()
			.asString()
			.contains("after the mark");
		LeakDetectionExtension extension = new LeakDetectionExtension();
		ExtensionContext context = context("Marked");
		extension.beforeAll(context);
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> extension.afterAll(context))
			.withMessageContaining("2 Netty buffer leak(s)");
	}

	private static ExtensionContext context(String name) {
		ExtensionContext context = mock(ExtensionContext.class, RETURNS_DEEP_STUBS);
		when(context.getDisplayName()).thenReturn(name);
		return context;
	}

	private static void leak() {
		ByteBuf buffer = PooledByteBufAllocator.DEFAULT.buffer(64);
		buffer.writeLong(42);
	}

}
