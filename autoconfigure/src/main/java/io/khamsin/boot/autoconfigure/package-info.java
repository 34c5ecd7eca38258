/**
 * Auto-configuration of khamsin as the reactive web server of a Spring Boot application, and its
 * {@code khamsin.*} properties. It takes precedence over Boot's own reactive containers and steps aside for
 * a user-defined {@code ReactiveWebServerFactory} or {@code khamsin.enabled=false}.
 */
package io.khamsin.boot.autoconfigure;
