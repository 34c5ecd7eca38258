package io.khamsin.container.accesslog;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.internal.PlatformDependent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log of a server: the event loops hand finished requests to a bounded lock-free queue, and a thread
 * of its own formats them and writes them to the SLF4J logger {@value #LOGGER_NAME}, to standard output, or to
 * a file. When the writer falls behind and the queue is full, lines are dropped and counted rather than slowing
 * the server. The writer polls the queue every few milliseconds when it is empty, so an event loop never has to
 * wake it.
 */
public final class AccessLog {

	/** The logger that the {@code logger} destination writes to. */
	public static final String LOGGER_NAME = "io.khamsin.access";

	private static final Logger logger = LoggerFactory.getLogger(AccessLog.class);

	private static final long IDLE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	private final AccessLogConfig config;

	private final AccessLogFormat format;

	private final Queue<AccessLogEntry> queue;

	private final LongAdder dropped = new LongAdder();

	private final LongAdder written = new LongAdder();

	private volatile boolean running;

	private Thread writer;

	/**
	 * Create an access log, not yet started.
	 * @param config the configuration, which must be enabled
	 */
	public AccessLog(AccessLogConfig config) {
		if (config == null || !config.enabled()) {
			throw new IllegalArgumentException("config must be an enabled access log configuration");
		}
		this.config = config;
		this.format = AccessLogFormat.parse(config.format());
		this.queue = PlatformDependent.newFixedMpscQueue(config.queueSize());
	}

	/**
	 * Open the destination and start the writer.
	 * @throws IllegalStateException if the file cannot be opened
	 */
	public synchronized void start() {
		if (this.running) {
			return;
		}
		Sink sink = openSink();
		this.running = true;
		this.writer = new Thread(() -> write(sink), "khamsin-access-log");
		this.writer.setDaemon(true);
		this.writer.start();
	}

	/**
	 * Write the lines still queued, close the destination and stop the writer.
	 */
	public synchronized void stop() {
		if (!this.running) {
			return;
		}
		this.running = false;
		LockSupport.unpark(this.writer);
		try {
			this.writer.join(TimeUnit.SECONDS.toMillis(5));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.writer = null;
	}

	/**
	 * Log a request once its response's last write completes. Called on the event loop.
	 * @param lastWrite the future of the response's last write (not a void one)
	 * @param request the request head, or {@code null} when the response refused a head that could not be read
	 * @param remoteAddress the client's address
	 * @param status the response status
	 * @param contentLength the response's {@code Content-Length}, or {@code null}
	 * @param startNanos {@link System#nanoTime()} at the first byte of the request
	 */
	public void log(ChannelFuture lastWrite, HttpRequest request, SocketAddress remoteAddress, int status,
			String contentLength, long startNanos) {
		lastWrite.addListener(new AccessLogEntry(this, request, remoteAddress, status, contentLength, startNanos));
	}

	void offer(AccessLogEntry entry) {
		if (!this.queue.offer(entry)) {
			this.dropped.increment();
		}
	}

	/** @return the lines dropped because the writer fell behind */
	public long dropped() {
		return this.dropped.sum();
	}

	/** @return the lines written */
	public long written() {
		return this.written.sum();
	}

	private void write(Sink sink) {
		StringBuilder line = new StringBuilder(256);
		long reportedDropped = 0;
		try {
			while (this.running || !this.queue.isEmpty()) {
				AccessLogEntry entry = this.queue.poll();
				if (entry == null) {
					sink.flush();
					long dropped = this.dropped.sum();
					if (dropped > reportedDropped) {
						logger.warn("The access log dropped {} line(s) because its writer fell behind; raise "
								+ "khamsin.access-log.queue-size or write to a faster destination", dropped - reportedDropped);
						reportedDropped = dropped;
					}
					LockSupport.parkNanos(IDLE_POLL_NANOS);
					continue;
				}
				line.setLength(0);
				this.format.format(entry, line);
				sink.write(line);
				this.written.increment();
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.error("The access log stopped writing to {}", this.config.destination(), ex);
		}
		finally {
			try {
				sink.close();
			}
			catch (IOException ex) {
				logger.warn("Could not close the access log {}", this.config.destination(), ex);
			}
		}
	}

	private Sink openSink() {
		String destination = this.config.destination();
		if ("logger".equals(destination)) {
			Logger access = LoggerFactory.getLogger(LOGGER_NAME);
			return new Sink() {

				@Override
				public void write(CharSequence line) {
					access.info("{}", line);
				}

			};
		}
		if ("stdout".equals(destination)) {
			return new WriterSink(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)), false);
		}
		Path file = Path.of(destination);
		try {
			if (file.getParent() != null) {
				Files.createDirectories(file.getParent());
			}
			return new WriterSink(Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND, StandardOpenOption.WRITE), true);
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalStateException("khamsin cannot open the access log file '" + destination + "': " + ex
					+ ". Set khamsin.access-log.destination to a writable file, 'stdout' or 'logger'", ex);
		}
	}

	private interface Sink {

		void write(CharSequence line) throws IOException;

		default void flush() throws IOException {
		}

		default void close() throws IOException {
		}

	}

	private static final class WriterSink implements Sink {

		private final Writer writer;

		private final boolean owned;

		WriterSink(Writer writer, boolean owned) {
			this.writer = writer;
			this.owned = owned;
		}

		@Override
		public void write(CharSequence line) throws IOException {
			this.writer.append(line).append('\n');
		}

		@Override
		public void flush() throws IOException {
			this.writer.flush();
		}

		@Override
		public void close() throws IOException {
			if (this.owned) {
				this.writer.close();
			}
			else {
				this.writer.flush();
			}
		}

	}

}
