package io.khamsin.container.http2;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DecoratingHttp2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;

import io.khamsin.container.metrics.ReactorMetrics;

import static io.netty.handler.codec.http2.Http2CodecUtil.FRAME_HEADER_LENGTH;

/**
 * The rules of RFC 9113 and the abuse limits that Netty 4.2's decoder does not enforce however it is configured,
 * checked on each frame before the decoder reads it. The decoder is handed one frame at a time (its input limited to
 * the frame), so that each check sees the connection as that frame finds it:
 * <ul>
 * <li>HEADERS on a stream closed both ways is a connection error STREAM_CLOSED, and HEADERS opening a stream below one
 * already opened a connection error PROTOCOL_ERROR (RFC 9113, sections 5.1 and 5.1.1); Netty forgets a closed stream,
 * so that it can tell neither from a stream it reset, and answers both with RST_STREAM. Frames on a stream either side
 * reset keep Netty's answer, which the RFC asks for (the client may not have seen the reset yet).</li>
 * <li>HEADERS on a half-closed (remote) stream is a stream error STREAM_CLOSED whatever its fields
 * (RFC 9113, section 5.1): Netty may find fault with the fields first.</li>
 * <li>A SETTINGS_INITIAL_WINDOW_SIZE that takes an open stream's window beyond 2^31-1 is a connection error
 * FLOW_CONTROL_ERROR (RFC 9113, section 6.9.2): Netty resets each such stream instead.</li>
 * <li>WINDOW_UPDATE frames beyond five, two per stream and {@code khamsin.http2.max-window-updates-per-data-frame}
 * per DATA frame sent end the connection with ENHANCE_YOUR_CALM: Netty takes any number of them.</li>
 * </ul>
 * Stream errors the decoder raises are counted by {@link ConnectionGuards}, and the bytes it reads on the reactor.
 */
final class FrameRules extends DecoratingHttp2ConnectionDecoder implements Http2Connection.Listener {

	private static final int SETTINGS_INITIAL_WINDOW_SIZE = 4;

	private static final int SETTING_LENGTH = 6;

	private static final short FLAG_ACK = 0x1;

	/** WINDOW_UPDATE frames any client may send before the server has sent anything (RFC 9113 allows some). */
	private static final long FREE_WINDOW_UPDATES = 5;

	private final Http2Connection connection;

	private final ConnectionGuards guards;

	private final int maxFrameSize;

	private final int windowUpdatesPerDataFrame;

	private final ReactorMetrics reactor;

	private final StreamHistory history = new StreamHistory();

	// Bytes of the frame being decoded that the decoder has not read yet; 0 at a frame boundary.
	private int frameLeft;

	// The half-closed (remote) stream the frame being decoded is a HEADERS on, else 0.
	private int headersOnHalfClosed;

	private long windowUpdates;

	private long streamsOpened;

	private long dataFramesSent;

	FrameRules(Http2ConnectionDecoder delegate, ConnectionGuards guards, Http2Config config, ReactorMetrics reactor) {
		super(delegate);
		this.reactor = reactor;
		this.connection = delegate.connection();
		this.guards = guards;
		this.maxFrameSize = config.maxFrameSize();
		this.windowUpdatesPerDataFrame = config.maxWindowUpdatesPerDataFrame();
		this.connection.addListener(this);
	}

	/**
	 * DATA frames were written to the client.
	 * @param bytes their payload, which the flow controller may split in frames of at most the client's frame size
	 */
	void dataSent(int bytes) {
		this.dataFramesSent += 1 + Math.max(0, bytes - 1) / this.maxFrameSize;
	}

	@Override
	public void decodeFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Http2Exception {
		while (in.isReadable()) {
			int start = in.readerIndex();
			if (this.frameLeft == 0) {
				if (in.readableBytes() < FRAME_HEADER_LENGTH) {
					return;
				}
				int length = in.getUnsignedMedium(start);
				byte type = in.getByte(start + 3);
				if (type == Http2FrameTypes.SETTINGS && length <= this.maxFrameSize
						&& in.readableBytes() < FRAME_HEADER_LENGTH + length) {
					// The window check reads the whole SETTINGS frame before the decoder applies it.
					return;
				}
				inspect(type, in.getUnsignedByte(start + 4), in.getInt(start + 5) & Integer.MAX_VALUE, in,
						start + FRAME_HEADER_LENGTH, length);
				this.frameLeft = FRAME_HEADER_LENGTH + length;
			}
			int writerIndex = in.writerIndex();
			in.writerIndex(start + Math.min(in.readableBytes(), this.frameLeft));
			int consumed;
			try {
				super.decodeFrame(ctx, in, out);
			}
			catch (Http2Exception.StreamException ex) {
				throw streamError(ex);
			}
			finally {
				in.writerIndex(writerIndex);
				consumed = in.readerIndex() - start;
				this.frameLeft -= consumed;
				this.reactor.bytesReceived(consumed);
			}
			if (consumed == 0) {
				return;
			}
		}
	}

	private void inspect(byte type, short flags, int streamId, ByteBuf in, int payload, int length)
			throws Http2Exception {
		this.headersOnHalfClosed = 0;
		switch (type) {
			case Http2FrameTypes.HEADERS -> checkHeaders(streamId);
			case Http2FrameTypes.RST_STREAM -> this.history.reset(streamId);
			case Http2FrameTypes.SETTINGS -> {
				if ((flags & FLAG_ACK) == 0 && streamId == 0 && length % SETTING_LENGTH == 0
						&& length <= this.maxFrameSize) {
					checkInitialWindow(in, payload, length);
				}
			}
			case Http2FrameTypes.WINDOW_UPDATE -> countWindowUpdate();
			default -> {
			}
		}
	}

	private void checkHeaders(int streamId) throws Http2Exception {
		if ((streamId & 1) == 0 || this.connection.goAwaySent()) {
			return;
		}
		Http2Stream stream = this.connection.stream(streamId);
		if (stream != null) {
			if (stream.state() == Http2Stream.State.HALF_CLOSED_REMOTE) {
				this.headersOnHalfClosed = streamId;
			}
			return;
		}
		switch (this.history.past(streamId)) {
			case NEVER_OPENED -> throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
					"HEADERS would open stream %d after stream %d: stream identifiers must increase (RFC 9113, "
							+ "section 5.1.1)", streamId, this.history.highest());
			case CLOSED -> throw Http2Exception.connectionError(Http2Error.STREAM_CLOSED,
					"HEADERS on stream %d, which both sides have ended (RFC 9113, section 5.1)", streamId);
			default -> {
			}
		}
	}

	private void checkInitialWindow(ByteBuf in, int payload, int length) throws Http2Exception {
		long initialWindow = -1;
		for (int at = payload; at < payload + length; at += SETTING_LENGTH) {
			if (in.getUnsignedShort(at) == SETTINGS_INITIAL_WINDOW_SIZE) {
				initialWindow = in.getUnsignedInt(at + 2);
			}
		}
		if (initialWindow < 0 || initialWindow > Http2Config.MAX_WINDOW) {
			// Absent, or out of range: the decoder answers the latter itself.
			return;
		}
		Http2RemoteFlowController flow = this.connection.remote().flowController();
		long delta = initialWindow - flow.initialWindowSize();
		if (delta <= 0) {
			return;
		}
		Http2Stream overflowing = this.connection
			.forEachActiveStream((stream) -> flow.windowSize(stream) + delta <= Http2Config.MAX_WINDOW);
		if (overflowing != null) {
			throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR,
					"SETTINGS_INITIAL_WINDOW_SIZE of %d takes the window of stream %d beyond 2^31-1 (RFC 9113, "
							+ "section 6.9.2)", initialWindow, overflowing.id());
		}
	}

	private void countWindowUpdate() throws Http2Exception {
		this.windowUpdates++;
		long allowed = FREE_WINDOW_UPDATES + 2 * this.streamsOpened + this.windowUpdatesPerDataFrame * this.dataFramesSent;
		if (this.windowUpdates > allowed) {
			throw Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM,
					"%d WINDOW_UPDATE frames for %d DATA frames sent on %d streams", this.windowUpdates,
					this.dataFramesSent, this.streamsOpened);
		}
	}

	private Http2Exception streamError(Http2Exception.StreamException error) {
		int streamId = error.streamId();
		// The codec answers with a reset (a refused stream never opened, but its identifier is used all the same).
		this.history.opened(streamId);
		this.history.reset(streamId);
		this.guards.streamError(error);
		if (streamId == this.headersOnHalfClosed && error.error() != Http2Error.STREAM_CLOSED) {
			return Http2Exception.streamError(streamId, Http2Error.STREAM_CLOSED, error,
					"HEADERS on stream %d, which the client has ended (RFC 9113, section 5.1)", streamId);
		}
		return error;
	}

	// Http2Connection.Listener

	@Override
	public void onStreamAdded(Http2Stream stream) {
		if (this.connection.remote().created(stream)) {
			this.streamsOpened++;
			this.history.opened(stream.id());
		}
	}

	@Override
	public void onStreamActive(Http2Stream stream) {
	}

	@Override
	public void onStreamHalfClosed(Http2Stream stream) {
	}

	@Override
	public void onStreamClosed(Http2Stream stream) {
		if (stream.isResetSent()) {
			this.history.reset(stream.id());
		}
	}

	@Override
	public void onStreamRemoved(Http2Stream stream) {
	}

	@Override
	public void onGoAwaySent(int lastStreamId, long errorCode, ByteBuf debugData) {
	}

	@Override
	public void onGoAwayReceived(int lastStreamId, long errorCode, ByteBuf debugData) {
	}

}
