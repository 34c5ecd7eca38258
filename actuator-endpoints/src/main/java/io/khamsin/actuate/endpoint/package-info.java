/**
 * The {@code khamsin} and {@code latency} actuator endpoints: what the server runs and how it is doing, and
 * its latency percentiles by route, protocol and path.
 */
package io.khamsin.actuate.endpoint;
