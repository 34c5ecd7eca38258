/**
 * What the running server shares between its connections: the configuration, the Spring handler, and the
 * registry of open connections that enforces the connection limit and drives graceful shutdown.
 */
package io.khamsin.container.engine;
