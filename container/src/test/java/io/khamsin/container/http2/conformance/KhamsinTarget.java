package io.khamsin.container.http2.conformance;

import java.net.InetAddress;
import java.util.EnumSet;
import java.util.Set;

import io.netty.channel.ChannelOption;
import io.netty.channel.uring.IoUring;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.transport.Transport;

/**
 * khamsin itself, with HTTP/2 on and every default of {@code khamsin.http2.*}, serving a plain Spring
 * {@link HttpHandler} through its bridge: what a WebFlux application behind khamsin gets. It declares every
 * {@link Capability}: khamsin's own rules in front of Netty's decoder handle each.
 */
final class KhamsinTarget implements ConformanceTarget {

	private final Transport transport;

	private KhamsinServer server;

	private KhamsinTarget(Transport transport) {
		this.transport = transport;
	}

	/** @return khamsin as configured by default: on epoll, where HTTP/2 does best */
	static KhamsinTarget h2c() {
		return new KhamsinTarget(Transport.AUTO);
	}

	/** @return khamsin forced onto io_uring, with its workarounds for HTTP/2 there */
	static KhamsinTarget h2cOnIoUring() {
		return new KhamsinTarget(Transport.IO_URING);
	}

	@Override
	public String name() {
		return (this.transport == Transport.AUTO) ? "khamsin" : "khamsin-io-uring";
	}

	@Override
	public boolean runsByDefault() {
		return this.transport == Transport.AUTO || IoUring.isAvailable();
	}

	@Override
	public Set<Capability> capabilities() {
		return EnumSet.allOf(Capability.class);
	}

	@Override
	public Endpoint start() {
		KhamsinServerConfig config = KhamsinServerConfig.builder()
			.address(InetAddress.getLoopbackAddress())
			.reactors(2)
			.transport(this.transport)
			.http2(Http2Config.builder().enabled(true).build())
			// As the reference's: the floods whose answers go unread end after a few thousand frames.
			.customizer((bootstrap) -> bootstrap.childOption(ChannelOption.SO_SNDBUF, NettyReferenceTarget.SEND_BUFFER))
			.build();
		this.server = KhamsinServer.create(config, handler());
		this.server.start();
		return Endpoint.h2c(InetAddress.getLoopbackAddress().getHostAddress(), this.server.port());
	}

	/** 200 with the reference's body for GET, the head alone for HEAD, the request's body echoed otherwise. */
	static HttpHandler handler() {
		return (request, response) -> {
			HttpMethod method = request.getMethod();
			if (HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method)) {
				return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(ReferenceStreamHandler.BODY)));
			}
			return DataBufferUtils.join(request.getBody())
				.defaultIfEmpty(response.bufferFactory().wrap(new byte[0]))
				.flatMap((body) -> response.writeWith(Mono.just(body)));
		};
	}

	@Override
	public void close() {
		if (this.server != null) {
			this.server.stop();
		}
	}

}
