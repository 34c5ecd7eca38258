/**
 * khamsin as a Spring Boot embedded reactive web server: the {@link io.khamsin.boot.KhamsinReactiveWebServerFactory}
 * and the {@link io.khamsin.boot.KhamsinWebServer} it creates. Both keep the contract of Boot's own containers
 * and delegate the serving to {@link io.khamsin.container.KhamsinServer}.
 */
package io.khamsin.boot;
