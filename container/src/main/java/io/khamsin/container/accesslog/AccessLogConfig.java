package io.khamsin.container.accesslog;

/**
 * The immutable configuration of the access log.
 *
 * @param enabled whether a line is written per request
 * @param format {@code common}, {@code combined} or a pattern of Apache {@code mod_log_config} directives
 * (see {@link AccessLogFormat})
 * @param destination {@code logger} (the SLF4J logger {@value AccessLog#LOGGER_NAME}, at INFO), {@code stdout},
 * or the path of a file to append to
 * @param queueSize the most lines waiting to be written; more are dropped and counted
 */
public record AccessLogConfig(boolean enabled, String format, String destination, int queueSize) {

	/** Default format. */
	public static final String DEFAULT_FORMAT = "common";

	/** Default destination. */
	public static final String DEFAULT_DESTINATION = "logger";

	/** Default queue size. */
	public static final int DEFAULT_QUEUE_SIZE = 8192;

	public AccessLogConfig {
		if (format == null || format.isBlank()) {
			throw new IllegalArgumentException("format must not be empty");
		}
		if (destination == null || destination.isBlank()) {
			throw new IllegalArgumentException("destination must be 'logger', 'stdout' or a file path, was '"
					+ destination + "'");
		}
		if (queueSize < 1) {
			throw new IllegalArgumentException("queueSize must be positive, was " + queueSize);
		}
		AccessLogFormat.parse(format);
	}

	/**
	 * The access log switched off, as by default.
	 * @return the configuration
	 */
	public static AccessLogConfig disabled() {
		return new AccessLogConfig(false, DEFAULT_FORMAT, DEFAULT_DESTINATION, DEFAULT_QUEUE_SIZE);
	}

	/**
	 * An access log in the given format to the given destination.
	 * @param format the format
	 * @param destination the destination
	 * @return the configuration
	 */
	public static AccessLogConfig of(String format, String destination) {
		return new AccessLogConfig(true, format, destination, DEFAULT_QUEUE_SIZE);
	}

}
