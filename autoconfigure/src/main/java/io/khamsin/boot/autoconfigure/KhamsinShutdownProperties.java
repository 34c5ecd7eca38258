package io.khamsin.boot.autoconfigure;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How khamsin shuts down ({@code khamsin.shutdown.*}), beside Boot's {@code server.shutdown} and
 * {@code spring.lifecycle.timeout-per-shutdown-phase}.
 *
 * @param delay How long the server keeps accepting and serving once the application begins to stop, before its
 * (graceful or immediate) shutdown starts. Boot reports readiness as refusing traffic from the first moment, so
 * /actuator/health/readiness answers 503 during the delay: set it to the time a load balancer takes to see that
 * (its check interval times the failures it waits for, plus a margin). It counts within
 * spring.lifecycle.timeout-per-shutdown-phase, which must exceed it plus the time requests take to finish. Under
 * Kubernetes, a preStop sleep does the same before the application is even told to stop.
 */
@ConfigurationProperties("khamsin.shutdown")
public record KhamsinShutdownProperties(@DefaultValue("0s") Duration delay) {

}
