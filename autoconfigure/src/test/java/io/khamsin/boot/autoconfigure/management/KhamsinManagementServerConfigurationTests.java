package io.khamsin.boot.autoconfigure.management;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementServerProperties;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementWebServerFactoryCustomizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.web.server.ConfigurableWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.forwarded.ForwardedConfig;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsProvider;
import io.khamsin.container.transport.ListenerMode;
import io.khamsin.container.transport.Transport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The management server's settings, in a context put together as actuator puts together its child context: the
 * factory's configuration first, actuator's management configuration last.
 */
class KhamsinManagementServerConfigurationTests {

	private static final HttpHandler HANDLER = (request, response) -> response.setComplete();

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withUserConfiguration(KhamsinManagementServerConfiguration.class, ActuatorChildConfiguration.class);

	@Test
	void theManagementServerListensOnTheManagementPortAndAddress() {
		this.runner
			.withPropertyValues("server.port=8081", "server.address=127.0.0.2", "management.server.port=9091",
					"management.server.address=127.0.0.1")
			.run((context) -> {
				KhamsinServerConfig config = serverConfig(context);
				assertThat(config.port()).isEqualTo(9091);
				assertThat(config.address()).isEqualTo(InetAddress.getByName("127.0.0.1"));
			});
	}

	@Test
	void theManagementServerListensOnEveryInterfaceWhenOnlyServerAddressIsSet() {
		this.runner.withPropertyValues("server.address=127.0.0.2", "management.server.port=9091")
			.run((context) -> assertThat(serverConfig(context).address()).isNull());
	}

	@Test
	void theManagementServerTakesTheEngineSettingsOfTheMainServer() {
		this.runner
			.withPropertyValues("management.server.port=9091", "khamsin.transport=nio", "khamsin.listener=shared",
					"khamsin.max-initial-line-length=2KB", "khamsin.idle-timeout=5s",
					"khamsin.header-read-timeout=2s", "khamsin.body-read-timeout=3s", "khamsin.max-connections=100",
					"khamsin.max-request-body-size=10MB", "server.max-http-request-header-size=16KB",
					"server.server-header=khamsin")
			.run((context) -> {
				KhamsinServerConfig config = serverConfig(context);
				assertThat(config.transport()).isEqualTo(Transport.NIO);
				assertThat(config.listener()).isEqualTo(ListenerMode.SHARED);
				assertThat(config.maxInitialLineLength()).isEqualTo(2048);
				assertThat(config.idleTimeout()).isEqualTo(Duration.ofSeconds(5));
				assertThat(config.headerReadTimeout()).isEqualTo(Duration.ofSeconds(2));
				assertThat(config.bodyReadTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(config.maxConnections()).isEqualTo(100);
				assertThat(config.maxRequestBodySize()).isEqualTo(10L * 1024 * 1024);
				assertThat(config.maxHeaderSize()).isEqualTo(16 * 1024);
				assertThat(config.serverHeader()).isEqualTo("khamsin");
			});
	}

	@Test
	void theManagementServerRunsOnOneReactorWithoutTheApplicationsFixedResponsesOrAccessLog() {
		this.runner
			.withPropertyValues("management.server.port=9091", "khamsin.reactors=4",
					"khamsin.fixed-responses[0].path=/livez", "khamsin.fixed-responses[0].body=OK",
					"khamsin.access-log.enabled=true")
			.run((context) -> {
				KhamsinServerConfig config = serverConfig(context);
				assertThat(config.reactors()).isEqualTo(1);
				assertThat(config.fixedResponses()).isEmpty();
				assertThat(config.accessLog().enabled()).isFalse();
			});
	}

	@Test
	void theManagementServerServesTlsWithManagementServerSslAndKhamsinsTlsSettings(@TempDir Path dir) {
		Path certificate = dir.resolve("management.crt");
		Path key = dir.resolve("management.key");
		TestCertificates.create().server("localhost").writePem(certificate, key);
		this.runner
			.withPropertyValues("management.server.port=9091", "management.server.ssl.certificate=file:" + certificate,
					"management.server.ssl.certificate-private-key=file:" + key, "khamsin.tls.provider=jdk",
					"khamsin.tls.handshake-timeout=3s")
			.run((context) -> {
				TlsConfig tls = serverConfig(context).tls();
				assertThat(tls).isNotNull();
				assertThat(tls.provider()).isEqualTo(TlsProvider.JDK);
				assertThat(tls.handshakeTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(tls.material().certificateChain()).isNotEmpty();
			});
	}

	@Test
	void theManagementServerAppliesForwardedHeadersAsTheMainServerDoes() {
		this.runner
			.withPropertyValues("management.server.port=9091", "server.forward-headers-strategy=native",
					"khamsin.forwarded.trusted-proxies=10.0.0.0/8")
			.run((context) -> assertThat(serverConfig(context).forwarded())
				.isEqualTo(ForwardedConfig.trusting(java.util.List.of("10.0.0.0/8"))));
	}

	@Test
	void theManagementServerMakesNoDevelopmentCertificateOfItsOwn() {
		this.runner.withPropertyValues("management.server.port=9091", "khamsin.tls.self-signed=true")
			.run((context) -> assertThat(serverConfig(context).tls()).isNull());
	}

	@Test
	void theManagementServerServesHttp2WithTheMainServersSettingsWhenItIsEnabled() {
		this.runner
			.withPropertyValues("management.server.port=9091", "server.http2.enabled=true",
					"khamsin.http2.max-concurrent-streams=20")
			.run((context) -> assertThat(serverConfig(context).http2())
				.isEqualTo(Http2Config.builder().enabled(true).maxConcurrentStreams(20).build()));
	}

	@Test
	void theManagementServerServesNoHttp2WhenItIsOff() {
		this.runner.withPropertyValues("management.server.port=9091")
			.run((context) -> assertThat(serverConfig(context).http2().enabled()).isFalse());
	}

	private static KhamsinServerConfig serverConfig(AssertableReactiveWebApplicationContext context) {
		KhamsinWebServer webServer = (KhamsinWebServer) context.getBean(KhamsinReactiveWebServerFactory.class)
			.getWebServer(HANDLER);
		try {
			return webServer.getKhamsinServer().config();
		}
		finally {
			webServer.destroy();
		}
	}

	/**
	 * What actuator adds to its child context: the management customizer, and the parent's factory class.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(ManagementServerProperties.class)
	static class ActuatorChildConfiguration {

		@Bean
		ManagementWebServerFactoryCustomizer<ConfigurableWebServerFactory> managementWebServerFactoryCustomizer(
				ListableBeanFactory beanFactory) {
			return new ManagementWebServerFactoryCustomizer<>(beanFactory);
		}

		@Bean
		KhamsinReactiveWebServerFactory managementContextWebServerFactory() {
			return new KhamsinReactiveWebServerFactory();
		}

	}

}
