package io.khamsin.container.bridge;

import java.util.function.Consumer;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.LastHttpContent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.compression.CompressionDecision;
import io.khamsin.container.compression.ContentEncoder;
import io.khamsin.container.compression.ResponseCompression;

/**
 * The compression of one response, on a server that compresses (a response of a server that does not has none):
 * the decision, made once before the head is written, which completes the response's headers; a whole body
 * encoded at once, off the event loop when it is large, and then written with its coded length; or a streamed
 * body's {@link ContentEncoder}, fed each part, flushed at each flush of the response and finished with its last
 * part, or closed when the response goes away first. A coding that fails closes the connection.
 * <p>
 * Used on the response's event loop only.
 */
final class ResponseEncoding {

	// The response's category: what a user filters compression failures by.
	private static final Logger logger = LoggerFactory.getLogger(KhamsinServerHttpResponse.class);

	private final KhamsinServerHttpResponse response;

	private final ProtocolChannel channel;

	private final BodyCompression compression;

	private final HttpHeaders requestHeaders;

	private final HttpHeaders responseHeaders;

	private final boolean headRequest;

	private ContentEncoder encoder;

	private boolean encoderHasInput;

	ResponseEncoding(KhamsinServerHttpResponse response, ProtocolChannel channel, BodyCompression compression,
			HttpHeaders requestHeaders, HttpHeaders responseHeaders, boolean headRequest) {
		this.response = response;
		this.channel = channel;
		this.compression = compression;
		this.requestHeaders = requestHeaders;
		this.responseHeaders = responseHeaders;
		this.headRequest = headRequest;
	}

	/**
	 * Decide once whether the response is compressed, and complete its headers accordingly.
	 * @param status the response's status
	 * @param bodyLength the body's length, or {@link ResponseCompression#UNKNOWN_LENGTH}
	 * @param fileRegion whether the body goes out as a file region
	 * @return the decision
	 */
	CompressionDecision decide(int status, long bodyLength, boolean fileRegion) {
		CompressionDecision decision = this.compression.decide(this.requestHeaders, this.headRequest, status,
				this.responseHeaders, bodyLength, fileRegion);
		decision.applyTo(this.responseHeaders);
		return decision;
	}

	/**
	 * Decide for a response whose head is written before its body, and start its encoder if it is compressed.
	 * @return whether the body is encoded as it streams (then it is chunked, its length unknown)
	 */
	boolean startStream(int status, boolean fileRegion) {
		CompressionDecision decision = decide(status, ResponseCompression.UNKNOWN_LENGTH, fileRegion);
		if (decision.compresses()) {
			this.encoder = decision.newEncoder(this.channel.channel().alloc());
			return true;
		}
		return false;
	}

	/**
	 * Decide for a response written whole, and if it is compressed, commit it and write it once its body is coded
	 * (at once, or back from off the event loop for a large body).
	 * @param status the response's status
	 * @param content the body; taken when the response is compressed
	 * @param written hears when the message was handed to the channel, with the failure if it could not be
	 * @return whether the response is compressed, and this took the body
	 */
	boolean writeWhole(int status, ByteBuf content, Consumer<Throwable> written) {
		CompressionDecision decision = decide(status, content.readableBytes(), false);
		if (!decision.compresses()) {
			return false;
		}
		ChannelPromise promise = this.response.commitWhole();
		this.compression.whole().compress(decision.newEncoder(this.channel.channel().alloc()), content,
				this.response.eventLoop(), (coded, failure) -> {
					if (failure != null) {
						logger.warn("Compressing a response with {} failed; closing the connection",
								decision.coding().token(), failure);
						promise.tryFailure(failure);
						KhamsinServerHttpResponse.done(written, failure);
						return;
					}
					if (this.response.isAborted()) {
						coded.release();
						promise.trySuccess();
						KhamsinServerHttpResponse.done(written, null);
						return;
					}
					this.responseHeaders.setInt(HttpHeaderNames.CONTENT_LENGTH, coded.readableBytes());
					this.response.writeFullMessage(coded, promise);
					KhamsinServerHttpResponse.done(written, null);
				});
		return true;
	}

	/**
	 * Write a part of a streamed body through the encoder, if the response has one.
	 * @param content the part, taken when there is an encoder
	 * @return whether it was taken
	 */
	boolean write(ByteBuf content) {
		if (this.encoder == null) {
			return false;
		}
		ByteBuf coded;
		try {
			coded = this.encoder.encode(content);
		}
		catch (RuntimeException ex) {
			failStream(ex);
			return true;
		}
		this.encoderHasInput = true;
		writeCoded(coded);
		return true;
	}

	/**
	 * Write what the encoder holds back, which would otherwise wait for more input: a server-sent event must decode
	 * as it arrives.
	 * @return {@code false} if the coding failed (and the connection is closed)
	 */
	boolean flush() {
		if (this.encoderHasInput && this.encoder != null) {
			this.encoderHasInput = false;
			try {
				writeCoded(this.encoder.flush());
			}
			catch (RuntimeException ex) {
				failStream(ex);
				return false;
			}
		}
		return true;
	}

	/**
	 * The last part of a streamed body: the encoder's last bytes, or nothing for a response to {@code HEAD} or one
	 * not encoded.
	 * @return the last content
	 */
	LastHttpContent last() {
		ContentEncoder encoder = this.encoder;
		if (encoder == null) {
			return LastHttpContent.EMPTY_LAST_CONTENT;
		}
		this.encoder = null;
		if (this.headRequest) {
			encoder.close();
			return LastHttpContent.EMPTY_LAST_CONTENT;
		}
		try {
			return new DefaultLastHttpContent(encoder.finish());
		}
		catch (RuntimeException ex) {
			logger.warn("Ending a streamed response compressed with {} failed; closing the connection",
					encoder.coding().token(), ex);
			this.channel.abort(ex);
			return LastHttpContent.EMPTY_LAST_CONTENT;
		}
	}

	/**
	 * The response went away: free the encoder's native state.
	 */
	void close() {
		ContentEncoder encoder = this.encoder;
		if (encoder != null) {
			this.encoder = null;
			encoder.close();
		}
	}

	private void writeCoded(ByteBuf coded) {
		if (coded.isReadable()) {
			this.channel.write(new DefaultHttpContent(coded), false);
		}
		else {
			coded.release();
		}
	}

	private void failStream(RuntimeException ex) {
		logger.warn("Compressing a streamed response with {} failed; closing the connection",
				this.encoder.coding().token(), ex);
		this.encoder = null;
		this.channel.abort(ex);
	}

}
