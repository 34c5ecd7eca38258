package io.khamsin.container.test;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

/**
 * The lines a class logs while a test runs, as a user would read them in the application's log: level and formatted
 * message. Close it to stop capturing.
 */
public final class LogCapture implements AutoCloseable {

	private final Logger logger;

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	private LogCapture(String name) {
		this.logger = (Logger) LoggerFactory.getLogger(name);
		this.appender.start();
		this.logger.addAppender(this.appender);
	}

	/**
	 * Start capturing what a class logs.
	 * @param source the class whose logger to listen to
	 * @return the capture
	 */
	public static LogCapture of(Class<?> source) {
		return new LogCapture(source.getName());
	}

	/**
	 * Start capturing what the classes of a package log.
	 * @param packageName the package, such as {@code io.khamsin.container.tls}
	 * @return the capture
	 */
	public static LogCapture ofPackage(String packageName) {
		return new LogCapture(packageName);
	}

	/**
	 * @param level a level
	 * @return the formatted messages logged at that level so far, in order
	 */
	public List<String> messages(Level level) {
		synchronized (this.appender) {
			return this.appender.list.stream()
				.filter((event) -> event.getLevel() == level)
				.map(ILoggingEvent::getFormattedMessage)
				.toList();
		}
	}

	@Override
	public void close() {
		this.logger.detachAppender(this.appender);
		this.appender.stop();
	}

}
