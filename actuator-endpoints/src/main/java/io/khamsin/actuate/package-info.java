/**
 * Actuator endpoints and Micrometer meter binders that read khamsin's figures: latency, connections, guards.
 * They read the engine's recorders and never sit on the request path.
 */
package io.khamsin.actuate;
