package io.khamsin.container.exchange;

import io.netty.util.internal.OutOfDirectMemoryError;

/**
 * Tells an allocation that found the direct-memory limit reached from the other failures of a handler: the JVM's
 * {@code -XX:MaxDirectMemorySize} ({@code Cannot reserve ... bytes of direct buffer memory}) or Netty's own
 * {@code io.netty.maxDirectMemory} ({@link OutOfDirectMemoryError}). Such a failure is the server's load, not the
 * request's fault, and passes once load drops: it is answered 503, as an overloaded server answers (RFC 9110,
 * section 15.6.4).
 */
final class DirectMemory {

	/** What the log line tells an operator to do. */
	static final String ADVICE = "raise -XX:MaxDirectMemorySize (or io.netty.maxDirectMemory) or lower the "
			+ "concurrency (khamsin.max-connections, the size of the bodies handlers hold)";

	private DirectMemory() {
	}

	/**
	 * Whether a failure, or one of its causes, is an allocation that found the direct-memory limit reached.
	 * @param failure the failure
	 * @return {@code true} if it is
	 */
	static boolean exhausted(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof OutOfDirectMemoryError) {
				return true;
			}
			if (cause instanceof OutOfMemoryError && cause.getMessage() != null
					&& cause.getMessage().contains("direct buffer memory")) {
				return true;
			}
		}
		return false;
	}

}
