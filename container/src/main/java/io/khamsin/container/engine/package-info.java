/**
 * What the running server shares between its connections, whatever their protocol: the settings every protocol
 * applies ({@link io.khamsin.container.engine.HttpSettings}), the Spring handler, the guard counters, the figures,
 * the access log ({@link io.khamsin.container.engine.ServerContext}), the {@code Date} header, and the registry of
 * open connections that enforces the connection limit and drives graceful shutdown.
 */
package io.khamsin.container.engine;
