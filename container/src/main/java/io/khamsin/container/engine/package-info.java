/**
 * What the running server shares between its connections, whatever their protocol: the configuration, the Spring
 * handler, the guard counters, the figures, the access log, and the registry of open connections that enforces the
 * connection limit and drives graceful shutdown.
 */
package io.khamsin.container.engine;
