/**
 * Boot's {@code server.ssl.*} and SSL bundles read into the engine's TLS configuration exactly as Boot's own
 * containers read them, so that their errors fail the start with Boot's messages, and bundle updates handed to the
 * engine. {@code khamsin.tls.*} holds khamsin's own TLS settings.
 */
package io.khamsin.boot.tls;
