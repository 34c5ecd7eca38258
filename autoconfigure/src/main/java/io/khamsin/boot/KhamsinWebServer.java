package io.khamsin.boot;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.GracefulShutdownCallback;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.util.Assert;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.engine.ShutdownResult;

/**
 * {@link WebServer} that controls a {@link KhamsinServer}. Usually created by a
 * {@link KhamsinReactiveWebServerFactory}. It can be started again after {@link #stop()}, not after
 * {@link #destroy()}.
 * <p>
 * With a shutdown delay, {@link #shutDownGracefully} first keeps serving for that long: Boot has by then published
 * {@code ReadinessState.REFUSING_TRAFFIC}, so that {@code /actuator/health/readiness} answers 503 while the listener
 * still accepts, and a load balancer that polls it takes the instance out before its connections close.
 */
public final class KhamsinWebServer implements WebServer {

	private static final Logger logger = LoggerFactory.getLogger(KhamsinWebServer.class);

	private final KhamsinServer server;

	private final boolean graceful;

	private final Duration shutdownDelay;

	private final Object monitor = new Object();

	private CountDownLatch running;

	/** The thread that ends the shutdown delay: of its own, so that no pool the application keeps busy holds it. */
	private Thread delayedShutdown;

	private GracefulShutdownCallback delayedCallback;

	private volatile boolean destroyed;

	/**
	 * Create a web server, not yet started.
	 * @param server the khamsin server to control
	 * @param graceful whether {@link #shutDownGracefully} waits for active requests ({@code server.shutdown=graceful})
	 */
	public KhamsinWebServer(KhamsinServer server, boolean graceful) {
		this(server, graceful, Duration.ZERO);
	}

	/**
	 * Create a web server, not yet started.
	 * @param server the khamsin server to control
	 * @param graceful whether {@link #shutDownGracefully} waits for active requests ({@code server.shutdown=graceful})
	 * @param shutdownDelay how long {@link #shutDownGracefully} keeps serving before it stops accepting
	 * ({@code khamsin.shutdown.delay}); zero for none
	 */
	public KhamsinWebServer(KhamsinServer server, boolean graceful, Duration shutdownDelay) {
		Assert.notNull(server, "'server' must not be null");
		Assert.notNull(shutdownDelay, "'shutdownDelay' must not be null");
		Assert.isTrue(!shutdownDelay.isNegative(), "'shutdownDelay' must not be negative");
		this.server = server;
		this.graceful = graceful;
		this.shutdownDelay = shutdownDelay;
	}

	@Override
	public void start() throws WebServerException {
		synchronized (this.monitor) {
			if (this.destroyed) {
				throw new WebServerException("khamsin was destroyed and cannot be started again", null);
			}
			if (this.running != null) {
				return;
			}
			try {
				this.server.start();
			}
			catch (io.khamsin.container.transport.PortInUseException ex) {
				throw new PortInUseException(ex.getPort(), ex);
			}
			catch (RuntimeException ex) {
				throw new WebServerException("Unable to start khamsin: " + ex.getMessage(), ex);
			}
			this.running = new CountDownLatch(1);
			startAwaitThread(this.running);
		}
	}

	// khamsin's reactors are daemon threads: without one live non-daemon thread the JVM of an application
	// whose main method has returned would exit as soon as it started.
	private void startAwaitThread(CountDownLatch running) {
		Thread awaitThread = new Thread(() -> {
			try {
				running.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "khamsin-server");
		awaitThread.setContextClassLoader(getClass().getClassLoader());
		awaitThread.setDaemon(false);
		awaitThread.start();
	}

	/**
	 * Stop at once: close the listeners and every connection. A graceful shutdown in progress reports
	 * {@link GracefulShutdownResult#REQUESTS_ACTIVE} if requests were still active. Never waits on a handler.
	 */
	@Override
	public void stop() throws WebServerException {
		synchronized (this.monitor) {
			// Only a callback still held here is one whose delay had not ended: once it ends, the delay's task takes it.
			GracefulShutdownCallback cutShort = this.delayedCallback;
			this.delayedCallback = null;
			if (this.delayedShutdown != null) {
				this.delayedShutdown.interrupt();
				this.delayedShutdown = null;
			}
			this.server.stop();
			if (cutShort != null) {
				logger.warn("Stopped before the shutdown delay of {} ms had passed: make "
						+ "spring.lifecycle.timeout-per-shutdown-phase longer than khamsin.shutdown.delay plus the "
						+ "time requests take to finish", this.shutdownDelay.toMillis());
				cutShort.shutdownComplete(GracefulShutdownResult.IMMEDIATE);
			}
			if (this.running != null) {
				this.running.countDown();
				this.running = null;
			}
		}
	}

	/**
	 * Stop accepting connections, close idle ones and let active requests finish; the callback learns how it
	 * ended. With {@code server.shutdown=immediate} the callback is told {@link GracefulShutdownResult#IMMEDIATE}
	 * at once. With a shutdown delay, all of this begins once the delay has passed, and the server serves as usual
	 * meanwhile; {@link #stop()} during the delay closes everything at once and tells the callback
	 * {@link GracefulShutdownResult#IMMEDIATE}.
	 * @param callback told the outcome once the shutdown has ended
	 */
	@Override
	public void shutDownGracefully(GracefulShutdownCallback callback) {
		if (this.shutdownDelay.isZero()) {
			shutDownNow(callback);
			return;
		}
		synchronized (this.monitor) {
			logger.info("Serving for {} ms more before shutting down, while readiness refuses traffic",
					this.shutdownDelay.toMillis());
			this.delayedCallback = callback;
			// Not CompletableFuture.delayedExecutor: its task runs on the common pool, which has one worker on two
			// cores and may be busy with the application's own work, and the delay then lasted until Boot's phase
			// timeout stopped the server without a graceful shutdown.
			Thread delay = new Thread(this::awaitShutdownDelay, "khamsin-shutdown-delay");
			delay.setDaemon(true);
			this.delayedShutdown = delay;
			delay.start();
		}
	}

	private void awaitShutdownDelay() {
		try {
			TimeUnit.NANOSECONDS.sleep(this.shutdownDelay.toNanos());
		}
		catch (InterruptedException ex) {
			// Stopped during the delay: stop() has told the callback.
			return;
		}
		endShutdownDelay();
	}

	private void endShutdownDelay() {
		GracefulShutdownCallback callback;
		synchronized (this.monitor) {
			callback = this.delayedCallback;
			this.delayedCallback = null;
			this.delayedShutdown = null;
		}
		if (callback != null) {
			shutDownNow(callback);
		}
	}

	private void shutDownNow(GracefulShutdownCallback callback) {
		if (!this.graceful) {
			callback.shutdownComplete(GracefulShutdownResult.IMMEDIATE);
			return;
		}
		this.server.shutdownGracefully().whenComplete((result, failure) -> {
			if (result == ShutdownResult.IDLE) {
				logger.info("Graceful shutdown complete");
				callback.shutdownComplete(GracefulShutdownResult.IDLE);
			}
			else {
				logger.info("Graceful shutdown aborted with one or more requests still active");
				callback.shutdownComplete(GracefulShutdownResult.REQUESTS_ACTIVE);
			}
		});
	}

	@Override
	public void destroy() {
		synchronized (this.monitor) {
			stop();
			this.destroyed = true;
		}
	}

	/**
	 * The port the server listens on.
	 * @return the port, or {@code -1} when not started, stopped or destroyed
	 */
	@Override
	public int getPort() {
		return this.destroyed ? -1 : this.server.port();
	}

	/**
	 * The khamsin server this web server controls: its configuration, connections and guard counts.
	 * @return the khamsin server
	 */
	public KhamsinServer getKhamsinServer() {
		return this.server;
	}

}
