package io.khamsin.container.engine;

import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.guard.GuardCounters;

/**
 * What every connection of one server shares: its configuration, the Spring handler it serves, its
 * connection registry and its guard counters. One instance per server start.
 *
 * @param config the configuration
 * @param handler the Spring reactive handler
 * @param connections the open connections
 * @param guards the guard counters
 */
public record ServerContext(KhamsinServerConfig config, HttpHandler handler, ConnectionRegistry connections,
		GuardCounters guards) {

}
