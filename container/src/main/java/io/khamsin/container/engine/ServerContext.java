package io.khamsin.container.engine;

import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.accesslog.AccessLog;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;

/**
 * What every connection of one server shares: the settings its protocols apply, the Spring handler it serves, its
 * connection registry, its guard counters, its figures and its access log. One instance per server start.
 *
 * @param settings the limits, deadlines and {@code Server} header of every protocol
 * @param handler the Spring reactive handler
 * @param connections the open connections
 * @param guards the guard counters
 * @param metrics the figures
 * @param accessLog the access log, or {@code null} when it is off
 */
public record ServerContext(HttpSettings settings, HttpHandler handler, ConnectionRegistry connections,
		GuardCounters guards, KhamsinMetrics metrics, AccessLog accessLog) {

	/**
	 * A context whose figures are its own, with every default, and no access log (as the JMH benchmarks build
	 * one).
	 * @param settings the settings of every protocol
	 * @param handler the Spring reactive handler
	 * @param connections the open connections
	 * @param guards the guard counters
	 */
	public ServerContext(HttpSettings settings, HttpHandler handler, ConnectionRegistry connections,
			GuardCounters guards) {
		this(settings, handler, connections, guards, KhamsinMetrics.create(MetricsConfig.defaults()), null);
	}

}
