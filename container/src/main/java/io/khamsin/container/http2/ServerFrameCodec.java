package io.khamsin.container.http2;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Settings;

import io.khamsin.container.metrics.ReactorMetrics;

/**
 * Netty's HTTP/2 frame codec for one server connection, built with every protection Netty 4.2 offers set from
 * {@link Http2Config} (written out, so that a new Netty cannot loosen a default unseen), khamsin's
 * {@link FrameRules} in front of its decoder, and each connection error it answers told to the connection's
 * {@link ConnectionGuards}, those that arise writing (answers the client made the server queue) included.
 */
final class ServerFrameCodec extends Http2FrameCodec {

	private final ConnectionGuards guards;

	private ServerFrameCodec(Http2ConnectionEncoder encoder, Http2ConnectionDecoder decoder, Http2Settings settings,
			boolean decoupleCloseAndGoAway, boolean flushPreface, ConnectionGuards guards) {
		super(encoder, decoder, settings, decoupleCloseAndGoAway, flushPreface);
		this.guards = guards;
	}

	/**
	 * Build the codec of a connection.
	 * @param config the HTTP/2 settings
	 * @param settings the SETTINGS the server advertises, built once from them
	 * @param guards the connection's guards
	 * @param reactor the figures of the connection's reactor, which count the bytes the codec reads
	 * @return the codec
	 */
	static ServerFrameCodec create(Http2Config config, Http2Settings settings, ConnectionGuards guards,
			ReactorMetrics reactor) {
		return (ServerFrameCodec) new Builder(config, settings, guards, reactor).build();
	}

	/**
	 * The SETTINGS a server with these settings advertises.
	 * @param config the settings
	 * @return its SETTINGS, shared by its connections (the codec only reads them)
	 */
	static Http2Settings settings(Http2Config config) {
		return Http2Settings.defaultSettings()
			.maxConcurrentStreams(config.maxConcurrentStreams())
			.initialWindowSize(config.initialWindowSize())
			.maxFrameSize(config.maxFrameSize())
			.maxHeaderListSize(config.maxHeaderListSize());
	}

	@Override
	protected void onConnectionError(ChannelHandlerContext ctx, boolean outbound, Throwable cause,
			Http2Exception http2Ex) {
		if (http2Ex != null) {
			this.guards.connectionError(http2Ex, outbound);
		}
		super.onConnectionError(ctx, outbound, cause, http2Ex);
	}

	private static final class Builder extends Http2FrameCodecBuilder {

		private final Http2Config config;

		private final ConnectionGuards guards;

		private final ReactorMetrics reactor;

		Builder(Http2Config config, Http2Settings settings, ConnectionGuards guards, ReactorMetrics reactor) {
			this.config = config;
			this.guards = guards;
			this.reactor = reactor;
			int resetWindowSeconds = (int) Math.min(Integer.MAX_VALUE, config.resetWindow().getSeconds());
			server(true);
			// A close (stop(), an idle timeout, the end of a drain) sends GOAWAY and closes once it is written; a
			// graceful shutdown waits for the streams itself (Http2ServerConnection).
			gracefulShutdownTimeoutMillis(0);
			initialSettings(settings);
			validateHeaders(true);
			validateRequiredPseudoHeaders(true);
			decoderEnforceMaxRstFramesPerWindow(config.maxResetsPerWindow(), resetWindowSeconds);
			encoderEnforceMaxRstFramesPerWindow(config.maxResetsPerWindow(), resetWindowSeconds);
			decoderEnforceMaxConsecutiveEmptyDataFrames(config.maxConsecutiveEmptyDataFrames());
			encoderEnforceMaxQueuedControlFrames(config.maxQueuedControlFrames());
			decoderEnforceMaxSmallContinuationFrames(config.maxSmallContinuationFrames());
		}

		@Override
		protected Http2FrameCodec build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
				Http2Settings initialSettings) {
			FrameRules rules = new FrameRules(decoder, this.guards, this.config, this.reactor);
			ServerFrameCodec codec = new ServerFrameCodec(new CountingEncoder(encoder, rules), rules,
					initialSettings, decoupleCloseAndGoAway(), flushPreface(), this.guards);
			codec.gracefulShutdownTimeoutMillis(gracefulShutdownTimeoutMillis());
			return codec;
		}

	}

}
