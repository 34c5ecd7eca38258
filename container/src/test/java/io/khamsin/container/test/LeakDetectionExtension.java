package io.khamsin.container.test;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty's leak detector reports a leaked buffer while it ran. Registered for every test
 * through {@code META-INF/services} (JUnit's extension auto-detection, switched on in the root pom), with the
 * detector at PARANOID so that every buffer is tracked.
 */
public final class LeakDetectionExtension implements BeforeAllCallback, AfterAllCallback {

	private static final List<String> leaks = new ArrayList<>();

	static {
		ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
		ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		synchronized (leaks) {
			leaks.clear();
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		// A leak is reported when a new buffer is tracked after the leaked one was collected.
		for (int i = 0; i < 3; i++) {
			System.gc();
			System.runFinalization();
			ByteBuf probe = PooledByteBufAllocator.DEFAULT.buffer(1);
			probe.release();
			ByteBuf heapProbe = PooledByteBufAllocator.DEFAULT.heapBuffer(1);
			heapProbe.release();
		}
		List<String> found;
		synchronized (leaks) {
			found = new ArrayList<>(leaks);
			leaks.clear();
		}
		if (!found.isEmpty()) {
			throw new AssertionError(found.size() + " Netty buffer leak(s) in " + context.getDisplayName() + ":\n"
					+ String.join("\n----\n", found));
		}
	}

	static void record(String resourceType, String records) {
		synchronized (leaks) {
			leaks.add(resourceType + " leaked" + ((records != null) ? ": " + records : ""));
		}
	}

	private static final class RecordingFactory extends ResourceLeakDetectorFactory {

		@Override
		@SuppressWarnings("deprecation")
		public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval,
				long maxActive) {
			return new RecordingDetector<>(resource, samplingInterval);
		}

	}

	private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {

		RecordingDetector(Class<T> resource, int samplingInterval) {
			super(resource, samplingInterval);
		}

		@Override
		protected void reportTracedLeak(String resourceType, String records) {
			super.reportTracedLeak(resourceType, records);
			record(resourceType, records);
		}

		@Override
		protected void reportUntracedLeak(String resourceType) {
			super.reportUntracedLeak(resourceType);
			record(resourceType, null);
		}

	}

}
