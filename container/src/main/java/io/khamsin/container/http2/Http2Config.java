package io.khamsin.container.http2;

import java.time.Duration;

/**
 * The HTTP/2 settings of a server (RFC 9113): whether it serves HTTP/2, what its {@code SETTINGS} frame advertises,
 * how much of a request body it takes before the application reads it, and the limits on what a client may make it
 * do. Every option has its default written next to it in {@link Builder}; {@link #defaults()} does not serve HTTP/2.
 *
 * @param enabled whether the server serves HTTP/2: h2c (prior knowledge and {@code Upgrade: h2c}) on a plain
 * listener, ALPN {@code h2} on a TLS one
 * @param maxConcurrentStreams the most streams a client may have open at once ({@code SETTINGS_MAX_CONCURRENT_STREAMS});
 * more are refused with {@code REFUSED_STREAM}
 * @param initialWindowSize how many bytes of a request body a stream takes before the application has read them
 * ({@code SETTINGS_INITIAL_WINDOW_SIZE})
 * @param connectionWindowSize how many bytes of request bodies all streams of a connection take together before the
 * application has read them (the connection's flow-control window, raised from 65,535 after the preface)
 * @param maxFrameSize the largest frame payload the server accepts ({@code SETTINGS_MAX_FRAME_SIZE})
 * @param maxHeaderListSize the largest header list the server accepts ({@code SETTINGS_MAX_HEADER_LIST_SIZE}): a
 * larger one is answered 431, a far larger one ends the connection
 * @param maxResetsPerWindow the most streams a client may reset, and may make the server reset, within
 * {@code resetWindow} (Rapid Reset, CVE-2023-44487; MadeYouReset, CVE-2025-8671); more end the connection with
 * {@code ENHANCE_YOUR_CALM}
 * @param resetWindow the window of {@code maxResetsPerWindow}, in whole seconds
 * @param maxConsecutiveEmptyDataFrames the most DATA frames without payload nor {@code END_STREAM} a client may send in
 * a row; more end the connection with {@code ENHANCE_YOUR_CALM}
 * @param maxQueuedControlFrames the most answers to control frames (SETTINGS and PING acknowledgements, resets) that
 * may wait for a client that does not read them; more end the connection with {@code ENHANCE_YOUR_CALM}
 * @param maxSmallContinuationFrames the most small CONTINUATION frames a header block may be sent in (CONTINUATION
 * Flood, CVE-2024-27316); more end the connection with {@code ENHANCE_YOUR_CALM}
 * @param maxWindowUpdatesPerDataFrame the WINDOW_UPDATE frames a client may send per DATA frame the server sent it
 * (beyond five, and two per stream); more end the connection with {@code ENHANCE_YOUR_CALM}
 */
public record Http2Config(boolean enabled, int maxConcurrentStreams, int initialWindowSize, int connectionWindowSize,
		int maxFrameSize, int maxHeaderListSize, int maxResetsPerWindow, Duration resetWindow,
		int maxConsecutiveEmptyDataFrames, int maxQueuedControlFrames, int maxSmallContinuationFrames,
		int maxWindowUpdatesPerDataFrame) {

	/** Default most concurrent streams per connection: 100, the least RFC 9113 (section 6.5.2) recommends. */
	public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;

	/** Default stream window: 65,535 bytes, the protocol's own initial window. */
	public static final int DEFAULT_INITIAL_WINDOW_SIZE = 65_535;

	/** Default connection window: 1 MiB, so that one stream whose body waits does not stall the others' bodies. */
	public static final int DEFAULT_CONNECTION_WINDOW_SIZE = 1024 * 1024;

	/** Default largest frame payload: 16,384 bytes, the protocol's own. */
	public static final int DEFAULT_MAX_FRAME_SIZE = 16_384;

	/** Default largest header list: 8 KiB, as the default largest HTTP/1.1 request head. */
	public static final int DEFAULT_MAX_HEADER_LIST_SIZE = 8 * 1024;

	/** Default most resets per window: 200 (Netty's server default). */
	public static final int DEFAULT_MAX_RESETS_PER_WINDOW = 200;

	/** Default reset window: 30 seconds (Netty's server default). */
	public static final Duration DEFAULT_RESET_WINDOW = Duration.ofSeconds(30);

	/** Default most empty DATA frames in a row: 2 (Netty's default). */
	public static final int DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES = 2;

	/** Default most unread control frame answers: 10,000 (Netty's default). */
	public static final int DEFAULT_MAX_QUEUED_CONTROL_FRAMES = 10_000;

	/** Default most small CONTINUATION frames per header block: 16 (Netty's default). */
	public static final int DEFAULT_MAX_SMALL_CONTINUATION_FRAMES = 16;

	/** Default WINDOW_UPDATE frames allowed per DATA frame sent: 10 (as Envoy allows). */
	public static final int DEFAULT_MAX_WINDOW_UPDATES_PER_DATA_FRAME = 10;

	/** The largest window HTTP/2 allows (RFC 9113, section 6.9.1). */
	static final int MAX_WINDOW = Integer.MAX_VALUE;

	public Http2Config {
		requirePositive("maxConcurrentStreams", maxConcurrentStreams);
		if (initialWindowSize < 0) {
			throw new IllegalArgumentException("initialWindowSize must be between 0 and " + MAX_WINDOW + ", was "
					+ initialWindowSize);
		}
		if (connectionWindowSize < DEFAULT_INITIAL_WINDOW_SIZE) {
			throw new IllegalArgumentException("connectionWindowSize must be between " + DEFAULT_INITIAL_WINDOW_SIZE
					+ " and " + MAX_WINDOW + ", was " + connectionWindowSize);
		}
		if (maxFrameSize < 16_384 || maxFrameSize > 16_777_215) {
			throw new IllegalArgumentException("maxFrameSize must be between 16384 and 16777215, was " + maxFrameSize);
		}
		requirePositive("maxHeaderListSize", maxHeaderListSize);
		requirePositive("maxResetsPerWindow", maxResetsPerWindow);
		if (resetWindow == null || resetWindow.getSeconds() < 1) {
			throw new IllegalArgumentException("resetWindow must be at least one second, was " + resetWindow);
		}
		requirePositive("maxConsecutiveEmptyDataFrames", maxConsecutiveEmptyDataFrames);
		requirePositive("maxQueuedControlFrames", maxQueuedControlFrames);
		requirePositive("maxSmallContinuationFrames", maxSmallContinuationFrames);
		requirePositive("maxWindowUpdatesPerDataFrame", maxWindowUpdatesPerDataFrame);
	}

	private static void requirePositive(String name, int value) {
		if (value <= 0) {
			throw new IllegalArgumentException(name + " must be positive, was " + value);
		}
	}

	/**
	 * Every default, HTTP/2 not served.
	 * @return the default configuration
	 */
	public static Http2Config defaults() {
		return builder().build();
	}

	/**
	 * A builder holding every default.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * A builder initialized from this configuration.
	 * @return a new builder
	 */
	public Builder toBuilder() {
		return new Builder().enabled(this.enabled)
			.maxConcurrentStreams(this.maxConcurrentStreams)
			.initialWindowSize(this.initialWindowSize)
			.connectionWindowSize(this.connectionWindowSize)
			.maxFrameSize(this.maxFrameSize)
			.maxHeaderListSize(this.maxHeaderListSize)
			.maxResetsPerWindow(this.maxResetsPerWindow)
			.resetWindow(this.resetWindow)
			.maxConsecutiveEmptyDataFrames(this.maxConsecutiveEmptyDataFrames)
			.maxQueuedControlFrames(this.maxQueuedControlFrames)
			.maxSmallContinuationFrames(this.maxSmallContinuationFrames)
			.maxWindowUpdatesPerDataFrame(this.maxWindowUpdatesPerDataFrame);
	}

	/**
	 * Builds an {@link Http2Config}; each field starts at its default.
	 */
	public static final class Builder {

		private boolean enabled = false;

		private int maxConcurrentStreams = DEFAULT_MAX_CONCURRENT_STREAMS;

		private int initialWindowSize = DEFAULT_INITIAL_WINDOW_SIZE;

		private int connectionWindowSize = DEFAULT_CONNECTION_WINDOW_SIZE;

		private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE;

		private int maxHeaderListSize = DEFAULT_MAX_HEADER_LIST_SIZE;

		private int maxResetsPerWindow = DEFAULT_MAX_RESETS_PER_WINDOW;

		private Duration resetWindow = DEFAULT_RESET_WINDOW;

		private int maxConsecutiveEmptyDataFrames = DEFAULT_MAX_CONSECUTIVE_EMPTY_DATA_FRAMES;

		private int maxQueuedControlFrames = DEFAULT_MAX_QUEUED_CONTROL_FRAMES;

		private int maxSmallContinuationFrames = DEFAULT_MAX_SMALL_CONTINUATION_FRAMES;

		private int maxWindowUpdatesPerDataFrame = DEFAULT_MAX_WINDOW_UPDATES_PER_DATA_FRAME;

		private Builder() {
		}

		public Builder enabled(boolean enabled) {
			this.enabled = enabled;
			return this;
		}

		public Builder maxConcurrentStreams(int maxConcurrentStreams) {
			this.maxConcurrentStreams = maxConcurrentStreams;
			return this;
		}

		public Builder initialWindowSize(int initialWindowSize) {
			this.initialWindowSize = initialWindowSize;
			return this;
		}

		public Builder connectionWindowSize(int connectionWindowSize) {
			this.connectionWindowSize = connectionWindowSize;
			return this;
		}

		public Builder maxFrameSize(int maxFrameSize) {
			this.maxFrameSize = maxFrameSize;
			return this;
		}

		public Builder maxHeaderListSize(int maxHeaderListSize) {
			this.maxHeaderListSize = maxHeaderListSize;
			return this;
		}

		public Builder maxResetsPerWindow(int maxResetsPerWindow) {
			this.maxResetsPerWindow = maxResetsPerWindow;
			return this;
		}

		public Builder resetWindow(Duration resetWindow) {
			this.resetWindow = resetWindow;
			return this;
		}

		public Builder maxConsecutiveEmptyDataFrames(int maxConsecutiveEmptyDataFrames) {
			this.maxConsecutiveEmptyDataFrames = maxConsecutiveEmptyDataFrames;
			return this;
		}

		public Builder maxQueuedControlFrames(int maxQueuedControlFrames) {
			this.maxQueuedControlFrames = maxQueuedControlFrames;
			return this;
		}

		public Builder maxSmallContinuationFrames(int maxSmallContinuationFrames) {
			this.maxSmallContinuationFrames = maxSmallContinuationFrames;
			return this;
		}

		public Builder maxWindowUpdatesPerDataFrame(int maxWindowUpdatesPerDataFrame) {
			this.maxWindowUpdatesPerDataFrame = maxWindowUpdatesPerDataFrame;
			return this;
		}

		public Http2Config build() {
			return new Http2Config(this.enabled, this.maxConcurrentStreams, this.initialWindowSize,
					this.connectionWindowSize, this.maxFrameSize, this.maxHeaderListSize, this.maxResetsPerWindow,
					this.resetWindow, this.maxConsecutiveEmptyDataFrames, this.maxQueuedControlFrames,
					this.maxSmallContinuationFrames, this.maxWindowUpdatesPerDataFrame);
		}

	}

}
