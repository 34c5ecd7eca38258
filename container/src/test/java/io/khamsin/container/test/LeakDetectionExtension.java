package io.khamsin.container.test;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
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
 * <p>
 * The detector reports a leak only once the leaked buffer was collected and another buffer is tracked, which can
 * be after the class that leaked it ended. Nothing reported is dropped: a report that arrives between two classes
 * fails the next one, naming the class before it, and one that arrives after the last class fails the run.
 */
public final class LeakDetectionExtension implements BeforeAllCallback, AfterAllCallback {

	private static final List<String> leaks = new ArrayList<>();

	// Where a report that arrives now is said to come from: the class running, or the gap after one.
	private static String running = "before the first test class";

	static {
		ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
		ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		context.getRoot()
			.getStore(ExtensionContext.Namespace.create(LeakDetectionExtension.class))
			.getOrComputeIfAbsent(EndOfRun.class, (key) -> new EndOfRun(), EndOfRun.class);
		synchronized (leaks) {
			running = "while " + context.getDisplayName() + " ran";
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		List<String> found = collect();
		synchronized (leaks) {
			running = "after " + context.getDisplayName() + " ended";
		}
		if (!found.isEmpty()) {
			throw new AssertionError(found.size() + " Netty buffer leak(s) reported while " + context.getDisplayName()
					+ " ran (a report made after an earlier class ended names that class):\n"
					+ String.join("\n----\n", found));
		}
	}

	/**
	 * The number of leaks reported so far in the run, as a mark for {@link #reportsSince(int)}.
	 * @return the mark
	 */
	public static int mark() {
		synchronized (leaks) {
			return leaks.size();
		}
	}

	/**
	 * Collect garbage until the detector has reported the buffers leaked before now, and return the reports made
	 * since a mark, for a test that checks a scenario of its own (they still fail the class as well).
	 * @param mark a value of {@link #mark()}
	 * @return the reports made since the mark
	 */
	public static List<String> reportsSince(int mark) {
		provokeReports();
		synchronized (leaks) {
			return List.copyOf(leaks.subList(Math.min(mark, leaks.size()), leaks.size()));
		}
	}

	private static List<String> collect() {
		provokeReports();
		synchronized (leaks) {
			List<String> found = new ArrayList<>(leaks);
			leaks.clear();
			return found;
		}
	}

	private static void provokeReports() {
		// A leak is reported when a new buffer is tracked after the leaked one was collected and its reference
		// enqueued, which the JVM's reference handler does after the collection, on a thread of its own: wait for a
		// reference of our own collected with it to be enqueued before tracking a buffer.
		for (int i = 0; i < 3; i++) {
			ReferenceQueue<Object> collected = new ReferenceQueue<>();
			WeakReference<Object> sentinel = new WeakReference<>(new Object(), collected);
			System.gc();
			try {
				collected.remove(1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			ByteBuf probe = PooledByteBufAllocator.DEFAULT.buffer(1);
			probe.release();
			ByteBuf heapProbe = PooledByteBufAllocator.DEFAULT.heapBuffer(1);
			heapProbe.release();
			Reference.reachabilityFence(sentinel);
		}
	}

	static void record(String resourceType, String records) {
		synchronized (leaks) {
			leaks.add(resourceType + " leaked, reported " + running
					+ ((records != null) ? ": " + records : ""));
		}
	}

	/**
	 * Fails the run with the leaks reported after its last class ended, when JUnit closes the root context.
	 */
	private static final class EndOfRun implements AutoCloseable {

		@Override
		public void close() {
			List<String> found = collect();
			if (!found.isEmpty()) {
				throw new AssertionError(found.size() + " Netty buffer leak(s) reported after the last test class:\n"
						+ String.join("\n----\n", found));
			}
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
