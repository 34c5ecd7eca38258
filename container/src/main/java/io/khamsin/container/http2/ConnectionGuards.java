package io.khamsin.container.http2;

import java.util.Locale;

import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;

/**
 * The abuse limits of one HTTP/2 connection as they trip: each error the codec answers is matched to the
 * {@link Guard} it enforces, counted every time, and logged once per connection and guard, naming the setting that
 * bounds it. The codec's own protections (Netty 4.2) say which limit tripped only in their messages; each is pinned by
 * an abuse case of the conformance suite, which fails if a new Netty words one differently.
 */
final class ConnectionGuards {

	private static final Logger logger = LoggerFactory.getLogger(ConnectionGuards.class);

	private final GuardCounters counters;

	private final Http2Config config;

	private final Channel channel;

	private long logged;

	ConnectionGuards(GuardCounters counters, Http2Config config, Channel channel) {
		this.counters = counters;
		this.config = config;
		this.channel = channel;
	}

	/**
	 * A connection error the codec is answering with GOAWAY.
	 * @param error the error
	 * @param outbound whether it arose writing (answers the client made the server queue) rather than reading
	 */
	void connectionError(Http2Exception error, boolean outbound) {
		Guard guard = guardOf(error, outbound);
		if (guard != null) {
			tripped(guard, "GOAWAY " + error.error());
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("HTTP/2 connection {} ended with GOAWAY {}: {}", this.channel, error.error(),
					error.getMessage());
		}
	}

	/**
	 * A stream error the codec is answering with a reset (or, for a header list too large, with 431).
	 * @param error the error
	 */
	void streamError(Http2Exception.StreamException error) {
		if (error instanceof Http2Exception.HeaderListSizeException) {
			tripped(Guard.H2_MAX_HEADER_LIST_SIZE, "431 on stream " + error.streamId());
		}
		else if (error.error() == Http2Error.REFUSED_STREAM) {
			tripped(Guard.H2_MAX_CONCURRENT_STREAMS, "RST_STREAM REFUSED_STREAM on stream " + error.streamId());
		}
	}

	/**
	 * One of the connection's limits tripped.
	 * @param guard the guard
	 * @param answer how the server answers
	 */
	void tripped(Guard guard, String answer) {
		this.counters.increment(guard);
		long bit = 1L << guard.ordinal();
		if ((this.logged & bit) == 0) {
			this.logged |= bit;
			logger.info("HTTP/2 client {} tripped {} ({}): {}; further trips on this connection are counted, not logged",
					this.channel.remoteAddress(), guard.tag(), limit(guard), answer);
		}
	}

	private static Guard guardOf(Http2Exception error, boolean outbound) {
		String message = String.valueOf(error.getMessage()).toLowerCase(Locale.ROOT);
		if (error.error() == Http2Error.ENHANCE_YOUR_CALM) {
			if (message.contains("rst frames")) {
				return outbound ? Guard.H2_PROVOKED_RESETS : Guard.H2_RAPID_RESET;
			}
			if (message.contains("control frames")) {
				return Guard.H2_CONTROL_FRAME_FLOOD;
			}
			if (message.contains("continuation")) {
				return Guard.H2_CONTINUATION_FLOOD;
			}
			if (message.contains("empty data frames")) {
				return Guard.H2_EMPTY_DATA_FRAMES;
			}
			if (message.contains("window_update")) {
				return Guard.H2_WINDOW_UPDATE_FLOOD;
			}
		}
		if (message.contains("header size exceeded")) {
			return Guard.H2_MAX_HEADER_LIST_SIZE;
		}
		return null;
	}

	private String limit(Guard guard) {
		Http2Config config = this.config;
		return switch (guard) {
			case H2_MAX_CONCURRENT_STREAMS -> "khamsin.http2.max-concurrent-streams=" + config.maxConcurrentStreams();
			case H2_MAX_HEADER_LIST_SIZE -> "khamsin.http2.max-header-list-size=" + config.maxHeaderListSize();
			case H2_RAPID_RESET, H2_PROVOKED_RESETS -> "khamsin.http2.max-resets-per-window="
					+ config.maxResetsPerWindow() + " per " + config.resetWindow().getSeconds() + "s";
			case H2_CONTINUATION_FLOOD -> "khamsin.http2.max-small-continuation-frames="
					+ config.maxSmallContinuationFrames();
			case H2_CONTROL_FRAME_FLOOD -> "khamsin.http2.max-queued-control-frames=" + config.maxQueuedControlFrames();
			case H2_EMPTY_DATA_FRAMES -> "khamsin.http2.max-consecutive-empty-data-frames="
					+ config.maxConsecutiveEmptyDataFrames();
			case H2_WINDOW_UPDATE_FLOOD -> "khamsin.http2.max-window-updates-per-data-frame="
					+ config.maxWindowUpdatesPerDataFrame();
			default -> guard.tag();
		};
	}

}
