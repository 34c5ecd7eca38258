package io.khamsin.boot.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;

import io.khamsin.boot.KhamsinReactiveWebServerFactory;
import io.khamsin.container.fixed.FixedResponse;
import io.khamsin.container.guard.OverloadConfig;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.http3.Http3Config;

/**
 * Applies {@link KhamsinProperties} and the khamsin-specific {@code server.*} settings (request header size,
 * server header) to a {@link KhamsinReactiveWebServerFactory}: the engine options as a customizer of its
 * configuration, so that each default stays the engine's. Port, address, shutdown, SSL, HTTP/2 and compression
 * are applied by Boot's own {@code ReactiveWebServerFactoryCustomizer}.
 */
public class KhamsinReactiveWebServerFactoryCustomizer
		implements WebServerFactoryCustomizer<KhamsinReactiveWebServerFactory>, Ordered {

	private final ServerProperties serverProperties;

	private final KhamsinProperties khamsinProperties;

	public KhamsinReactiveWebServerFactoryCustomizer(ServerProperties serverProperties,
			KhamsinProperties khamsinProperties) {
		this.serverProperties = serverProperties;
		this.khamsinProperties = khamsinProperties;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	@Override
	public void customize(KhamsinReactiveWebServerFactory factory) {
		customizeEngine(factory);
		// The main server's alone: a management server on its own port speaks what its own TLS allows.
		Http3Config http3 = http3(this.khamsinProperties.http3());
		factory.addConfigCustomizers((config) -> config.http3(http3));
		List<FixedResponse> fixedResponses = fixedResponses();
		if (!fixedResponses.isEmpty()) {
			factory.addConfigCustomizers((config) -> config.fixedResponses(fixedResponses));
		}
	}

	/**
	 * Apply what a management server shares with the main one: the engine settings of {@code khamsin.*} (HTTP/2's
	 * among them), the largest request head and the {@code Server} header, but not the fixed responses, which belong to the
	 * application. Values are checked now, so that a wrong one names its property when the context starts.
	 * @param factory the factory to customize
	 */
	public void customizeEngine(KhamsinReactiveWebServerFactory factory) {
		KhamsinProperties khamsin = this.khamsinProperties;
		int maxInitialLineLength = toInt("khamsin.max-initial-line-length", khamsin.maxInitialLineLength());
		DataSize maxHeaderSize = this.serverProperties.getMaxHttpRequestHeaderSize();
		Integer maxHeaderBytes = (maxHeaderSize != null) ? toInt("server.max-http-request-header-size", maxHeaderSize)
				: null;
		Http2Config http2 = http2(khamsin.http2());
		OverloadConfig overload = overload(khamsin.overload());
		factory.addConfigCustomizers((config) -> {
			PropertyMapper map = PropertyMapper.get();
			map.from(khamsin::reactors).to(config::reactors);
			map.from(khamsin::transport).to(config::transport);
			map.from(khamsin::listener).to(config::listener);
			map.from(maxInitialLineLength).to(config::maxInitialLineLength);
			map.from(maxHeaderBytes).to(config::maxHeaderSize);
			map.from(khamsin::idleTimeout).to(config::idleTimeout);
			map.from(khamsin::headerReadTimeout).to(config::headerReadTimeout);
			map.from(khamsin::bodyReadTimeout).to(config::bodyReadTimeout);
			map.from(khamsin::minRequestBodyRate).as(DataSize::toBytes).to(config::minRequestBodyRate);
			map.from(khamsin::sendTimeout).to(config::sendTimeout);
			map.from(khamsin::requestTimeout).to(config::requestTimeout);
			map.from(khamsin::maxConnections).to(config::maxConnections);
			map.from(khamsin::maxRequestBodySize).as(DataSize::toBytes).to(config::maxRequestBodySize);
			config.overload(overload);
			config.http2(http2);
		});
		PropertyMapper.get().from(this.serverProperties::getServerHeader).to(factory::setServerHeader);
		factory.setKernelTls(khamsin.egress().ktls());
	}

	private static OverloadConfig overload(KhamsinProperties.OverloadProperties overload) {
		try {
			return new OverloadConfig(overload.maxQueueDelay(), overload.retryAfter());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("khamsin.overload: " + ex.getMessage(), ex);
		}
	}

	/**
	 * The engine's HTTP/2 settings, not yet served: {@code server.http2.enabled} turns them on, in the factory.
	 */
	private static Http2Config http2(KhamsinProperties.Http2Properties http2) {
		try {
			return Http2Config.builder()
				.maxConcurrentStreams(http2.maxConcurrentStreams())
				.initialWindowSize(toInt("khamsin.http2.initial-window-size", http2.initialWindowSize()))
				.connectionWindowSize(toInt("khamsin.http2.connection-window-size", http2.connectionWindowSize()))
				.maxFrameSize(toInt("khamsin.http2.max-frame-size", http2.maxFrameSize()))
				.maxHeaderListSize(toInt("khamsin.http2.max-header-list-size", http2.maxHeaderListSize()))
				.maxResetsPerWindow(http2.maxResetsPerWindow())
				.resetWindow(http2.resetWindow())
				.maxConsecutiveEmptyDataFrames(http2.maxConsecutiveEmptyDataFrames())
				.maxQueuedControlFrames(http2.maxQueuedControlFrames())
				.maxSmallContinuationFrames(http2.maxSmallContinuationFrames())
				.maxWindowUpdatesPerDataFrame(http2.maxWindowUpdatesPerDataFrame())
				.build();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("khamsin.http2: " + ex.getMessage(), ex);
		}
	}

	private static Http3Config http3(KhamsinProperties.Http3Properties http3) {
		try {
			return Http3Config.builder()
				.enabled(http3.enabled())
				.idleTimeout(http3.idleTimeout())
				.maxBidirectionalStreams(http3.maxConcurrentStreams())
				.maxUnidirectionalStreams(http3.maxUnidirectionalStreams())
				.initialMaxData(http3.connectionWindowSize().toBytes())
				.initialMaxStreamData(http3.streamWindowSize().toBytes())
				.maxUdpPayloadSize(toInt("khamsin.http3.max-udp-payload-size", http3.maxUdpPayloadSize()))
				.receiveBufferSize(toInt("khamsin.http3.receive-buffer-size", http3.receiveBufferSize()))
				.congestionControl(http3.congestionControl())
				.maxResetsPerWindow(http3.maxResetsPerWindow())
				.resetWindow(http3.resetWindow())
				.earlyData(http3.earlyData())
				.retry(http3.retry())
				.altSvcMaxAge(http3.altSvcMaxAge())
				.build();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("khamsin.http3: " + ex.getMessage(), ex);
		}
	}

	private List<FixedResponse> fixedResponses() {
		List<KhamsinProperties.FixedResponseProperties> properties = this.khamsinProperties.fixedResponses();
		List<FixedResponse> fixedResponses = new ArrayList<>();
		for (int i = 0; i < properties.size(); i++) {
			try {
				fixedResponses.add(properties.get(i).toFixedResponse());
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("khamsin.fixed-responses[" + i + "]: " + ex.getMessage(), ex);
			}
		}
		return List.copyOf(fixedResponses);
	}

	private static int toInt(String property, DataSize size) {
		long bytes = size.toBytes();
		if (bytes > Integer.MAX_VALUE) {
			throw new IllegalArgumentException(property + " must be at most " + Integer.MAX_VALUE + " bytes, was "
					+ size);
		}
		return (int) bytes;
	}

}
