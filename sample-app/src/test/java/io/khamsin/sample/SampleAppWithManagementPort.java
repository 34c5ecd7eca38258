package io.khamsin.sample;

import java.net.URI;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A sample app of its own whose actuator endpoints are served on a separate management port, on the loopback
 * interface: the main server and the management server that actuator starts in a child context.
 */
final class SampleAppWithManagementPort implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final WebServer main;

	private final WebServer management;

	SampleAppWithManagementPort(Container container) {
		this.context = new SpringApplicationBuilder(SampleApplication.class,
				ObservedSampleApp.OwnReactorResources.class, ManagementServerCapture.class)
			.run("--server.port=0", "--server.address=127.0.0.1", "--management.server.port=0",
					"--management.server.address=127.0.0.1", "--khamsin.enabled=" + container.khamsinEnabled(),
					"--khamsin.reactors=2", "--spring.main.banner-mode=off");
		this.main = ((WebServerApplicationContext) this.context).getWebServer();
		this.management = this.context.getBean(ManagementServerCapture.class).server.get();
		if (this.management == null) {
			this.context.close();
			throw new IllegalStateException("No management server started (is management.server.port applied?)");
		}
	}

	WebServer main() {
		return this.main;
	}

	WebServer management() {
		return this.management;
	}

	static URI uri(WebServer server, String path) {
		return URI.create("http://127.0.0.1:" + server.getPort() + path);
	}

	@Override
	public void close() {
		this.context.close();
	}

	/**
	 * Hears the web server of actuator's child context: its events reach the parent's listeners too.
	 */
	static class ManagementServerCapture implements ApplicationListener<WebServerInitializedEvent> {

		final AtomicReference<WebServer> server = new AtomicReference<>();

		@Override
		public void onApplicationEvent(WebServerInitializedEvent event) {
			if ("management".equals(event.getApplicationContext().getServerNamespace())) {
				this.server.set(event.getWebServer());
			}
		}

	}

}
