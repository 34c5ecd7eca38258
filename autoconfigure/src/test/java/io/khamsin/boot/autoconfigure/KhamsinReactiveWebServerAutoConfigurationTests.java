package io.khamsin.boot.autoconfigure;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.boot.web.server.reactive.context.AnnotationConfigReactiveWebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.HttpHandler;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.compression.CompressionConfig;
import io.khamsin.container.egress.KernelTlsMode;
import io.khamsin.container.forwarded.ForwardedConfig;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.tls.TlsClientAuth;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsProvider;
import io.khamsin.container.transport.KhamsinServerCustomizer;
import io.khamsin.container.transport.ListenerMode;
import io.khamsin.container.transport.Transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

@ExtendWith(OutputCaptureExtension.class)
class KhamsinReactiveWebServerAutoConfigurationTests {

	private static final HttpHandler HANDLER = (request, response) -> response.setComplete();

	// Reactor Netty's auto-configuration is listed first: khamsin must win through its ordering, not by luck.
	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
				KhamsinReactiveWebServerAutoConfiguration.class));

	@Test
	void khamsinIsChosenOverReactorNetty() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ReactiveWebServerFactory.class);
			assertThat(context).getBean(ReactiveWebServerFactory.class).isInstanceOf(KhamsinReactiveWebServerFactory.class);
		});
	}

	@Test
	void stepsAsideForAUserDefinedReactiveWebServerFactory() {
		this.runner.withUserConfiguration(UserFactoryConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(ReactiveWebServerFactory.class);
			assertThat(context).getBean(ReactiveWebServerFactory.class)
				.isSameAs(context.getBean(UserFactoryConfiguration.class).factory);
		});
	}

	@Test
	void stepsAsideForReactorNettyWhenDisabled() {
		this.runner.withPropertyValues("khamsin.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(KhamsinReactiveWebServerFactory.class);
			assertThat(context).getBean(ReactiveWebServerFactory.class).isInstanceOf(NettyReactiveWebServerFactory.class);
		});
	}

	@Test
	void doesNotApplyToAServletWebApplication() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KhamsinReactiveWebServerAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KhamsinReactiveWebServerFactory.class)
				.doesNotHaveBean(KhamsinProperties.class));
	}

	@Test
	void doesNotApplyToANonWebApplication() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KhamsinReactiveWebServerAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KhamsinReactiveWebServerFactory.class)
				.doesNotHaveBean(KhamsinProperties.class));
	}

	@Test
	void khamsinAndServerPropertiesReachTheEngine() {
		this.runner
			.withPropertyValues("khamsin.reactors=3", "khamsin.transport=io-uring", "khamsin.listener=shared",
					"khamsin.max-initial-line-length=2KB", "khamsin.idle-timeout=5s", "khamsin.header-read-timeout=2s",
					"khamsin.body-read-timeout=3s", "khamsin.min-request-body-rate=1KB", "khamsin.send-timeout=7s",
					"khamsin.request-timeout=9s",
					"khamsin.max-connections=100", "khamsin.max-request-body-size=10MB",
					"khamsin.overload.max-queue-delay=20ms", "khamsin.overload.retry-after=3s", "server.port=9090", "server.address=127.0.0.1",
					"server.server-header=khamsin", "server.max-http-request-header-size=16KB")
			.run((context) -> {
				KhamsinServerConfig config = serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class));
				assertThat(config.reactors()).isEqualTo(3);
				assertThat(config.transport()).isEqualTo(Transport.IO_URING);
				assertThat(config.listener()).isEqualTo(ListenerMode.SHARED);
				assertThat(config.maxInitialLineLength()).isEqualTo(2048);
				assertThat(config.idleTimeout()).isEqualTo(Duration.ofSeconds(5));
				assertThat(config.headerReadTimeout()).isEqualTo(Duration.ofSeconds(2));
				assertThat(config.bodyReadTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(config.minRequestBodyRate()).isEqualTo(1024);
				assertThat(config.sendTimeout()).isEqualTo(Duration.ofSeconds(7));
				assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(9));
				assertThat(config.maxConnections()).isEqualTo(100);
				assertThat(config.overload().maxQueueDelay()).isEqualTo(Duration.ofMillis(20));
				assertThat(config.overload().retryAfterSeconds()).isEqualTo("3");
				assertThat(config.maxRequestBodySize()).isEqualTo(10L * 1024 * 1024);
				assertThat(config.port()).isEqualTo(9090);
				assertThat(config.address()).isEqualTo(InetAddress.getByName("127.0.0.1"));
				assertThat(config.serverHeader()).isEqualTo("khamsin");
				assertThat(config.maxHeaderSize()).isEqualTo(16 * 1024);
			});
	}

	@Test
	void shutdownDelayIsNoneUnlessKhamsinShutdownDelayIsSet() {
		this.runner.run((context) -> assertThat(context.getBean(KhamsinReactiveWebServerFactory.class)
			.getShutdownDelay()).isZero());
		this.runner.withPropertyValues("khamsin.shutdown.delay=5s")
			.run((context) -> assertThat(context.getBean(KhamsinReactiveWebServerFactory.class).getShutdownDelay())
				.isEqualTo(Duration.ofSeconds(5)));
	}

	@Test
	void aRequestHeaderSizeBeyondTwoGigabytesFailsWithAMessageNamingTheProperty() {
		this.runner.withPropertyValues("server.max-http-request-header-size=3GB")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("server.max-http-request-header-size must be at most"));
	}

	@Test
	void compressionSettingsReachTheEngine() {
		this.runner
			.withPropertyValues("server.compression.enabled=true", "server.compression.mime-types=text/plain,text/csv",
					"server.compression.min-response-size=4KB", "server.compression.excluded-user-agents=old")
			.run((context) -> assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class))
				.compression()).isEqualTo(CompressionConfig.of(true, List.of("text/plain", "text/csv"), 4096,
						List.of("old"))));
	}

	@Test
	void serverSslAndKhamsinsTlsSettingsReachTheEngine() {
		this.runner.withPropertyValues("khamsin.tls.self-signed=true", "khamsin.tls.provider=jdk",
				"khamsin.tls.session-timeout=10m", "khamsin.tls.handshake-timeout=4s", "server.ssl.client-auth=want")
			.run((context) -> {
				TlsConfig tls = serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).tls();
				assertThat(tls.provider()).isEqualTo(TlsProvider.JDK);
				assertThat(tls.sessionTimeout()).isEqualTo(Duration.ofMinutes(10));
				assertThat(tls.handshakeTimeout()).isEqualTo(Duration.ofSeconds(4));
				assertThat(tls.clientAuth()).isEqualTo(TlsClientAuth.WANT);
				assertThat(tls.material().description()).isEqualTo("the self-signed development certificate");
			});
	}

	@Test
	void kernelTlsIsAutoUnlessEgressKtlsSaysOtherwise() {
		this.runner.withPropertyValues("khamsin.tls.self-signed=true")
			.run((context) -> assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).tls()
				.kernelTls()).isEqualTo(KernelTlsMode.AUTO));
		this.runner.withPropertyValues("khamsin.tls.self-signed=true", "khamsin.egress.ktls=off")
			.run((context) -> assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).tls()
				.kernelTls()).isEqualTo(KernelTlsMode.OFF));
	}

	@Test
	void serverHttp2EnabledServesHttp2WithTheKhamsinHttp2Settings() {
		this.runner
			.withPropertyValues("server.http2.enabled=true", "khamsin.http2.max-concurrent-streams=50",
					"khamsin.http2.initial-window-size=1MB", "khamsin.http2.max-header-list-size=16KB",
					"khamsin.http2.max-resets-per-window=20", "khamsin.http2.reset-window=10s")
			.run((context) -> {
				Http2Config http2 = serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).http2();
				assertThat(http2).isEqualTo(Http2Config.builder()
					.enabled(true)
					.maxConcurrentStreams(50)
					.initialWindowSize(1024 * 1024)
					.maxHeaderListSize(16 * 1024)
					.maxResetsPerWindow(20)
					.resetWindow(Duration.ofSeconds(10))
					.build());
			});
	}

	@Test
	void khamsinHttp3SettingsReachTheEngine() {
		this.runner
			.withPropertyValues("khamsin.tls.self-signed=true", "khamsin.http3.enabled=true",
					"khamsin.http3.max-concurrent-streams=50",
					"khamsin.http3.congestion-control=bbr", "khamsin.http3.retry=false",
					"khamsin.http3.alt-svc-max-age=1h")
			.run((context) -> assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).http3())
				.isEqualTo(Http3Config.builder()
					.enabled(true)
					.maxBidirectionalStreams(50)
					.congestionControl(Http3Config.CongestionControl.BBR)
					.retry(false)
					.altSvcMaxAge(Duration.ofHours(1))
					.build()));
	}

	@Test
	void http3WithoutTlsFailsWithAMessageThatSaysWhatItNeeds() {
		this.runner.withPropertyValues("khamsin.http3.enabled=true")
			.run((context) -> assertThatIllegalArgumentException()
				.isThrownBy(() -> serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)))
				.withMessageContaining("needs server.ssl"));
	}

	@Test
	void aWrongHttp3SettingFailsWithAMessageNamingIt() {
		this.runner.withPropertyValues("khamsin.http3.max-udp-payload-size=1000B")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("maxUdpPayloadSize"));
	}

	@Test
	void http2IsOffUnlessServerHttp2IsEnabled() {
		this.runner.withPropertyValues("khamsin.http2.max-concurrent-streams=50")
			.run((context) -> assertThat(
					serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).http2().enabled())
				.isFalse());
	}

	@Test
	void aWrongHttp2SettingFailsWithAMessageNamingIt() {
		this.runner.withPropertyValues("khamsin.http2.max-frame-size=1KB")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("khamsin.http2: maxFrameSize must be between 16384 and 16777215"));
	}

	@Test
	void withoutServerSslOrADevelopmentCertificateTheEngineSpeaksCleartext() {
		this.runner.run((context) -> assertThat(
				serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).tls()).isNull());
	}

	@Test
	void aNativeForwardHeadersStrategyHasTheEngineApplyForwardedHeadersFromTheTrustedProxies() {
		this.runner
			.withPropertyValues("server.forward-headers-strategy=native",
					"khamsin.forwarded.trusted-proxies=10.0.0.0/8,192.168.1.10")
			.run((context) -> assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class))
				.forwarded()).isEqualTo(ForwardedConfig.trusting(List.of("10.0.0.0/8", "192.168.1.10"))));
	}

	@Test
	void frameworkAndNoneLeaveForwardedHeadersToSpringOrToNoOne() {
		for (String strategy : List.of("framework", "none")) {
			this.runner.withPropertyValues("server.forward-headers-strategy=" + strategy)
				.run((context) -> assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class))
					.forwarded()
					.enabled()).as(strategy).isFalse());
		}
	}

	@Test
	void withNoStrategyACloudPlatformThatUsesForwardedHeadersTurnsThemOn() {
		this.runner.withPropertyValues("spring.main.cloud-platform=kubernetes")
			.run((context) -> assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class))
				.forwarded()).isEqualTo(ForwardedConfig.trusting(ForwardedConfig.DEFAULT_TRUSTED_PROXIES)));
		this.runner.run((context) -> assertThat(
				serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class)).forwarded().enabled()).isFalse());
	}

	@Test
	void aTrustedProxyThatIsNoAddressFailsTheStartNamingItsProperty() {
		this.runner
			.withPropertyValues("server.forward-headers-strategy=native", "khamsin.forwarded.trusted-proxies=lb.local")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("Invalid khamsin.forwarded.trusted-proxies: trustedProxies[0]: "
						+ "'lb.local' is not an IP address or CIDR block"));
	}

	@Test
	void webServerFactoryCustomizerBeansAreAppliedAfterTheProperties() {
		this.runner.withUserConfiguration(FactoryCustomizerConfiguration.class)
			.withPropertyValues("khamsin.max-connections=100")
			.run((context) -> assertThat(serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class))
				.maxConnections()).isEqualTo(7));
	}

	@Test
	void khamsinServerCustomizerBeansAreAppliedInOrder() {
		this.runner.withUserConfiguration(ServerCustomizerConfiguration.class).run((context) -> {
			KhamsinServerConfig config = serverConfig(context.getBean(KhamsinReactiveWebServerFactory.class));
			assertThat(config.customizers()).containsExactly(context.getBean("first", KhamsinServerCustomizer.class),
					context.getBean("second", KhamsinServerCustomizer.class));
		});
	}

	@Test
	void aReactiveWebServerApplicationRunsOnKhamsin(CapturedOutput output) {
		new ReactiveWebApplicationContextRunner(AnnotationConfigReactiveWebServerApplicationContext::new)
			.withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
					KhamsinReactiveWebServerAutoConfiguration.class))
			.withUserConfiguration(HttpHandlerConfiguration.class)
			.withPropertyValues("server.port=0", "server.address=127.0.0.1", "khamsin.reactors=1")
			.run((context) -> {
				AnnotationConfigReactiveWebServerApplicationContext serverContext = (AnnotationConfigReactiveWebServerApplicationContext) context
					.getSourceApplicationContext();
				assertThat(serverContext.getWebServer()).isInstanceOf(KhamsinWebServer.class);
				int port = serverContext.getWebServer().getPort();
				assertThat(port).isPositive();
				assertThat(output).contains("khamsin started on port " + port + " (http/1.1) with 1 reactor (");
			});
	}

	private static KhamsinServerConfig serverConfig(KhamsinReactiveWebServerFactory factory) {
		return ((KhamsinWebServer) factory.getWebServer(HANDLER)).getKhamsinServer().config();
	}

	@Configuration(proxyBeanMethods = false)
	static class UserFactoryConfiguration {

		final ReactiveWebServerFactory factory = (handler) -> null;

		@Bean
		ReactiveWebServerFactory userFactory() {
			return this.factory;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FactoryCustomizerConfiguration {

		@Bean
		WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory> maxConnectionsCustomizer() {
			return (factory) -> factory.addConfigCustomizers((config) -> config.maxConnections(7));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ServerCustomizerConfiguration {

		@Bean
		@org.springframework.core.annotation.Order(2)
		KhamsinServerCustomizer second() {
			return (bootstrap) -> {
			};
		}

		@Bean
		@org.springframework.core.annotation.Order(1)
		KhamsinServerCustomizer first() {
			return (bootstrap) -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HttpHandlerConfiguration {

		@Bean
		HttpHandler httpHandler() {
			return HANDLER;
		}

	}

}
