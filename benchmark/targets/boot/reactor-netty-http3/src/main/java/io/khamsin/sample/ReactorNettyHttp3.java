package io.khamsin.sample;

import java.io.File;
import java.time.Duration;

import io.netty.channel.ChannelOption;
import reactor.netty.http.Http3SslContextSpec;
import reactor.netty.http.HttpProtocol;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The benchmark's Reactor Netty targets on the {@code h3} wire ({@code --bench.http3=true}): Reactor Netty's HTTP/3
 * server, configured as its reference documentation shows (protocol {@code HTTP3}, a QUIC TLS context from the PEM
 * files of {@code server.ssl}, and HTTP/3 settings equal to khamsin's defaults). It turns the whole server into a
 * datagram server on the port: Reactor Netty serves HTTP/3 or TCP protocols, not both on one server. Its UDP socket
 * asks the same receive buffer as khamsin's default ({@code khamsin.http3.receive-buffer-size}, 4 MiB): with the
 * kernel's default both servers dropped packets under the benchmark's load, so the run would measure a setting, not
 * the servers. {@code bench.http3.idle-timeout} (30 s, as khamsin's default) is shortened by the leak probe.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "bench.http3", havingValue = "true")
class ReactorNettyHttp3 {

	@Bean
	NettyServerCustomizer http3(Environment environment) {
		File certificate = new File(environment.getRequiredProperty("server.ssl.certificate"));
		File key = new File(environment.getRequiredProperty("server.ssl.certificate-private-key"));
		Duration idleTimeout = environment.getProperty("bench.http3.idle-timeout", Duration.class, Duration.ofSeconds(30));
		return (server) -> server.protocol(HttpProtocol.HTTP3)
			// Its option() reaches the QUIC connections' channels; the UDP socket is the bound server's channel.
			.doOnBound((bound) -> bound.channel().config().setOption(ChannelOption.SO_RCVBUF, 4 * 1024 * 1024))
			.secure((spec) -> spec.sslContext(Http3SslContextSpec.forServer(key, null, certificate)))
			.http3Settings((spec) -> spec.idleTimeout(idleTimeout)
				.maxData(10L * 1024 * 1024)
				.maxStreamDataBidirectionalLocal(1024 * 1024)
				.maxStreamDataBidirectionalRemote(1024 * 1024)
				.maxStreamsBidirectional(100));
	}

}
