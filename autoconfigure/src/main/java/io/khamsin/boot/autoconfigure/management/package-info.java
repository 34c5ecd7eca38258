/**
 * khamsin as the separate management server of an application with actuator, when
 * {@code management.server.port} differs from {@code server.port}. Boot creates the child context that serves the
 * actuator endpoints; this package gives it a khamsin server with the main server's engine settings.
 */
package io.khamsin.boot.autoconfigure.management;
