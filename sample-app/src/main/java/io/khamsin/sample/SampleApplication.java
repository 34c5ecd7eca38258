package io.khamsin.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A Spring Boot WebFlux application that runs on khamsin because {@code khamsin-spring-boot-starter} is on its
 * classpath, and on Reactor Netty with {@code khamsin.enabled=false}. Its routes are the ones the integration
 * suite and the benchmarks use.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
