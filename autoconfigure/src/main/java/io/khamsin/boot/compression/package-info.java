/**
 * Boot's {@code server.compression.*} as the engine's {@link io.khamsin.container.compression.CompressionConfig}.
 * The rules themselves live in the engine, so that every protocol applies them alike.
 */
package io.khamsin.boot.compression;
