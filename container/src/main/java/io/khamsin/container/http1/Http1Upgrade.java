package io.khamsin.container.http1;

import java.util.Map;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelPipeline;

import io.khamsin.container.bridge.ProtocolUpgrade;

/**
 * How an HTTP/1.1 connection leaves HTTP once its {@code 101 Switching Protocols} is written (RFC 9110, section
 * 7.8): the new protocol's handlers go right behind the codec, which then leaves the pipeline and hands them the
 * bytes its decoder still holds. Made when an exchange asks for it (a WebSocket handshake), not per connection.
 */
final class Http1Upgrade implements ProtocolUpgrade {

	private final ChannelPipeline pipeline;

	private final Http1ServerCodec codec;

	Http1Upgrade(ChannelPipeline pipeline, Http1ServerCodec codec) {
		this.pipeline = pipeline;
		this.codec = codec;
	}

	@Override
	public void switchTo(Map<String, ? extends ChannelHandler> handlers) {
		String after = this.pipeline.context(this.codec).name();
		for (Map.Entry<String, ? extends ChannelHandler> handler : handlers.entrySet()) {
			this.pipeline.addAfter(after, handler.getKey(), handler.getValue());
			after = handler.getKey();
		}
		// Bytes the decoder still holds go on to the new protocol's first handler.
		this.pipeline.remove(this.codec);
	}

}
