package io.khamsin.sample;

import java.net.URI;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The sample app running on a container, on an ephemeral port of the loopback interface.
 *
 * @param container the container that serves it
 * @param context the application's context, for test beans such as {@link GatedEvents}
 * @param port the port it listens on
 */
record SampleServer(Container container, ConfigurableApplicationContext context, int port) {

	URI uri(String pathAndQuery) {
		return URI.create("http://localhost:" + this.port + pathAndQuery);
	}

	URI webSocketUri(String path) {
		return URI.create("ws://localhost:" + this.port + path);
	}

	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

}
