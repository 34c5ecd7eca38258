package io.khamsin.container.test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * Tests for {@link LeakDetectionExtension}: a leak must fail the class that caused it.
 */
class LeakDetectionExtensionTests {

	@Test
	void aLeakedBufferFailsTheTestClass() {
		LeakDetectionExtension extension = new LeakDetectionExtension();
		ExtensionContext context = mock(ExtensionContext.class);
		when(context.getDisplayName()).thenReturn("leaky");
		extension.beforeAll(context);
		leak();
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> extension.afterAll(context))
			.withMessageContaining("leak");
	}

	private static void leak() {
		ByteBuf buffer = PooledByteBufAllocator.DEFAULT.buffer(64);
		buffer.writeLong(42);
	}

}
