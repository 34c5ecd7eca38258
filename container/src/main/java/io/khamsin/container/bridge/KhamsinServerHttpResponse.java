package io.khamsin.container.bridge;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import org.springframework.http.support.Netty4HeadersAdapter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.khamsin.container.compression.ResponseCompression;
import io.khamsin.container.egress.EgressCounters;

/**
 * A Spring {@code ServerHttpResponse} written to Netty. The headers live in a Netty {@code HttpHeaders} that
 * Spring's view adapts, so nothing is copied at commit. A single-buffer body goes out with its head in one
 * write; a streamed body is chunked and flushed once per batch of parts produced together; a file body leaves by
 * the path {@link FileBodies} takes for it: whole with its head, as a file region the kernel sends, or in chunks.
 * <p>
 * Where the server compresses, each response has a {@code ResponseEncoding} that decides it once, before its head
 * is written ({@link ResponseCompression}, {@code server.compression.*}): a single buffer is encoded whole (off the
 * event loop when it is large) and sent with its coded length, a stream is encoded part by part and the encoder
 * flushed at each flush of the response, so that a server-sent event decodes when it arrives, and a file region is
 * sent as it is. None of it is tied to a protocol: the decision reads the headers, the encoders see only buffers.
 * Where it does not, a response holds no encoding, and checks that one reference at each step.
 * <p>
 * A body must match the {@code Content-Length} its head announced: one that would run past it is cut there, and one
 * that ends short of it (a file that shrank while it was read, a handler that set a wrong length) ends the
 * response by closing the connection (HTTP/1.1) or resetting the stream (HTTP/2), so that a client never waits for
 * bytes that will not come nor reads the next response's bytes as this one's. A whole response whose body does not
 * match the length its handler set is answered {@code 500} instead.
 * <p>
 * Every write happens on the channel's event loop.
 */
public final class KhamsinServerHttpResponse extends AbstractServerHttpResponse implements ZeroCopyHttpOutputMessage {

	private static final Logger logger = LoggerFactory.getLogger(KhamsinServerHttpResponse.class);

	private static final DefaultHttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory();

	private final ProtocolChannel channel;

	private final EventLoop eventLoop;

	private final io.netty.handler.codec.http.HttpHeaders nettyHeaders;

	private final boolean headRequest;

	private final EgressCounters egress;

	private final ResponseEncoding encoding;

	private final Runnable flushTask = this::flushNow;

	private boolean flushScheduled;

	private boolean headWritten;

	private boolean lastWritten;

	private boolean aborted;

	private ResponseWrite currentWrite;

	/** The {@code Content-Length} a streamed body's head announced, and what was written of it; or {@code null}. */
	private BodyLength length;

	/** The status the server answered with in place of the handler's, which Spring no longer takes once committed. */
	private HttpStatusCode errorStatus;

	private ChannelFuture lastWrite;

	private KhamsinServerHttpResponse(ProtocolChannel channel, NettyDataBufferFactory bufferFactory,
			io.netty.handler.codec.http.HttpHeaders nettyHeaders, boolean headRequest, BodyCompression compression,
			io.netty.handler.codec.http.HttpHeaders requestHeaders, EgressCounters egress) {
		super(bufferFactory, new HttpHeaders(new Netty4HeadersAdapter(nettyHeaders)));
		this.channel = channel;
		this.eventLoop = channel.channel().eventLoop();
		this.nettyHeaders = nettyHeaders;
		this.headRequest = headRequest;
		this.egress = egress;
		this.encoding = (compression != null)
				? new ResponseEncoding(this, channel, compression, requestHeaders, nettyHeaders, headRequest) : null;
	}

	/**
	 * The response of one exchange.
	 * @param channel the protocol that carries it
	 * @param bufferFactory the buffers of its connection's allocator
	 * @param headRequest whether the request is a {@code HEAD}
	 * @param compression the server's compression, or {@code null} when it does not compress
	 * @param requestHeaders the request's headers, which compression reads ({@code Accept-Encoding},
	 * {@code User-Agent})
	 * @param egress where the way each file body leaves is counted
	 * @return the response
	 */
	public static KhamsinServerHttpResponse create(ProtocolChannel channel, NettyDataBufferFactory bufferFactory,
			boolean headRequest, BodyCompression compression, io.netty.handler.codec.http.HttpHeaders requestHeaders,
			EgressCounters egress) {
		return new KhamsinServerHttpResponse(channel, bufferFactory, HEADERS.newHeaders(), headRequest, compression,
				requestHeaders, egress);
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T> T getNativeResponse() {
		return (T) this.nettyHeaders;
	}

	/**
	 * The status, {@code 200} when the handler set none, as on Reactor Netty and the Servlet containers:
	 * observations such as Boot's {@code http.server.requests} read it when the exchange completes.
	 */
	@Override
	public HttpStatusCode getStatusCode() {
		if (this.errorStatus != null) {
			return this.errorStatus;
		}
		HttpStatusCode code = super.getStatusCode();
		return (code != null) ? code : HttpStatus.OK;
	}

	@Override
	protected void applyStatusCode() {
		// The status is read when the head is written.
	}

	@Override
	protected void applyHeaders() {
		// Spring's headers are a view over the Netty headers that will be written.
	}

	@Override
	protected void applyCookies() {
		for (java.util.List<ResponseCookie> cookies : getCookies().values()) {
			for (ResponseCookie cookie : cookies) {
				this.nettyHeaders.add(HttpHeaderNames.SET_COOKIE, cookie.toString());
			}
		}
	}

	@Override
	protected Mono<Void> writeWithInternal(Publisher<? extends DataBuffer> body) {
		return new ResponseWrite(this, body, (body instanceof Mono) ? ResponseWrite.Mode.SINGLE : ResponseWrite.Mode.STREAM);
	}

	@Override
	protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		return Flux.from(body).concatMap((part) -> new ResponseWrite(this, part, ResponseWrite.Mode.STREAM_FLUSH)).then();
	}

	@Override
	public Mono<Void> writeWith(Path file, long position, long count) {
		return doCommit(() -> Mono.defer(() -> FileBodies.write(this, file, position, count)));
	}

	/**
	 * Commit and write the head now, with no body: the last thing written in HTTP before a protocol switch
	 * ({@code 101 Switching Protocols}).
	 * @return completes once the head was handed to the channel, on its event loop
	 */
	public Mono<Void> writeHeadOnly() {
		// Deferred: Spring takes every commit action from its supplier before it runs the first of them, and the
		// head must wait for the one that applies the cookies and for the beforeCommit actions before it.
		return doCommit(() -> Mono.defer(() -> onEventLoop(() -> writeFull(null))));
	}

	/**
	 * Run an action on the event loop: at once when called there.
	 * @return completes once the action ran, with its failure if it threw
	 */
	Mono<Void> onEventLoop(Runnable action) {
		if (this.eventLoop.inEventLoop()) {
			action.run();
			return Mono.empty();
		}
		return Mono.create((sink) -> this.eventLoop.execute(() -> {
			try {
				action.run();
			}
			catch (RuntimeException ex) {
				sink.error(ex);
				return;
			}
			sink.success();
		}));
	}

	// The methods below run on the event loop.

	public EventLoop eventLoop() {
		return this.eventLoop;
	}

	boolean isWritable() {
		return this.channel.channel().isWritable();
	}

	ProtocolChannel protocolChannel() {
		return this.channel;
	}

	EgressCounters egress() {
		return this.egress;
	}

	boolean isHeadRequest() {
		return this.headRequest;
	}

	io.netty.handler.codec.http.HttpHeaders nettyHeaders() {
		return this.nettyHeaders;
	}

	boolean isAborted() {
		return this.aborted;
	}

	/** @return whether the head was handed to the channel */
	public boolean isHeadWritten() {
		return this.headWritten;
	}

	/**
	 * Write the whole response in one message: head and, if present, the only body buffer.
	 */
	void writeFull(DataBuffer body) {
		writeFull(body, null);
	}

	/**
	 * Write the whole response in one message: head and, if present, the only body buffer, compressed where the
	 * response is; {@code written} hears when the message was handed to the channel (at once, or once a large body
	 * was compressed off the event loop), with the failure if it could not be.
	 */
	void writeFull(DataBuffer body, Consumer<Throwable> written) {
		if (this.aborted || this.headWritten) {
			release(body);
			done(written, null);
			return;
		}
		ByteBuf content = (body != null) ? toByteBuf(body) : Unpooled.EMPTY_BUFFER;
		if (this.headRequest) {
			if (!this.nettyHeaders.contains(HttpHeaderNames.CONTENT_LENGTH) && content.isReadable()) {
				this.nettyHeaders.setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
			}
			content.release();
			content = Unpooled.EMPTY_BUFFER;
			if (this.encoding != null) {
				this.encoding.decide(statusCode(), ResponseCompression.UNKNOWN_LENGTH, false);
			}
		}
		else {
			if (mayHaveBody(statusCode())) {
				long declared = BodyLength.declared(this.nettyHeaders);
				if (declared < 0) {
					this.nettyHeaders.setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
				}
				else if (declared != content.readableBytes()) {
					if (body == null) {
						// Completed with no body, as Spring's resource handling answers 416 to a range it can not
						// serve, leaving the length of the whole file it set before: the response has none.
						this.nettyHeaders.setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
					}
					else {
						logger.warn("A response with Content-Length {} has a body of {} bytes; answering 500 instead",
								declared, content.readableBytes());
						content.release();
						writeError(HttpResponseStatus.INTERNAL_SERVER_ERROR);
						done(written, null);
						return;
					}
				}
			}
			if (this.encoding != null && this.encoding.writeWhole(statusCode(), content, written)) {
				return;
			}
		}
		writeFullMessage(content, null);
		done(written, null);
	}

	/**
	 * Commit the response now, its whole message to be written later ({@link #writeFullMessage}) once its body is
	 * coded: nothing else is written meanwhile.
	 * @return the promise of that write
	 */
	ChannelPromise commitWhole() {
		this.headWritten = true;
		this.lastWritten = true;
		ChannelPromise promise = this.channel.channel().newPromise();
		this.lastWrite = promise;
		return promise;
	}

	/**
	 * Write the head and the whole body in one message, and end the response.
	 * @param promise the promise of the write, or {@code null} for a new one
	 */
	void writeFullMessage(ByteBuf content, ChannelPromise promise) {
		HttpResponse head = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status(), content, this.nettyHeaders,
				EmptyHttpHeaders.INSTANCE);
		this.channel.prepareHead(head, false);
		this.headWritten = true;
		this.lastWritten = true;
		this.lastWrite = this.channel.write(head, true, promise);
	}

	/**
	 * Write the whole response in one message, its body never compressed: a file body the kernel would otherwise send
	 * as it is.
	 */
	void writeFullAsIs(DataBuffer body) {
		if (this.encoding != null) {
			this.encoding.decide(statusCode(), body.readableByteCount(), true);
		}
		writeFullMessage(toByteBuf(body), null);
	}

	/**
	 * Write the head of a body the kernel sends as it is, and then that body unless the request is a {@code HEAD} or
	 * the body is empty.
	 * @param count the body's length
	 * @param region makes the body's file region
	 * @return the region's write, or a done one when no region was written
	 */
	ChannelFuture writeHeadAndRegion(long count, Supplier<Object> region) {
		this.nettyHeaders.set(HttpHeaderNames.CONTENT_LENGTH, count);
		writeHead(false, true);
		if (this.headRequest || count == 0) {
			return this.channel.channel().newSucceededFuture();
		}
		// The region's transfer is the kernel's: a file that shrinks fails it, which closes the connection.
		this.length = null;
		return this.channel.write(region.get(), false);
	}

	static void done(Consumer<Throwable> written, Throwable failure) {
		if (written != null) {
			written.accept(failure);
		}
	}

	/**
	 * Write one part of a streamed body, after the head if it was not written yet.
	 */
	void writePart(DataBuffer part, boolean flush) {
		if (this.aborted || this.lastWritten) {
			release(part);
			return;
		}
		if (!this.headWritten) {
			BodyLength.dropFromByteranges(statusCode(), this.nettyHeaders);
			writeHead(!this.nettyHeaders.contains(HttpHeaderNames.CONTENT_LENGTH), false);
		}
		ByteBuf content = toByteBuf(part);
		BodyLength length = this.length;
		if (length != null && !length.add(content.readableBytes())) {
			content.release();
			logger.warn("A response body runs past its Content-Length of {} bytes; closing its connection (or HTTP/2 stream)",
					length.announced());
			abort();
			this.channel.abort(new IOException("Response body longer than its Content-Length of "
					+ length.announced() + " bytes"));
			return;
		}
		if (this.headRequest) {
			content.release();
		}
		else if (this.encoding == null || !this.encoding.write(content)) {
			this.channel.write(new DefaultHttpContent(content), false);
		}
		if (flush) {
			flushNow();
		}
		else {
			scheduleFlush();
		}
	}

	private void writeHead(boolean streaming, boolean fileRegion) {
		if (this.encoding != null && this.encoding.startStream(statusCode(), fileRegion)) {
			streaming = true;
		}
		HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status(), this.nettyHeaders);
		this.channel.prepareHead(head, streaming);
		this.headWritten = true;
		if (!streaming && !this.headRequest && mayHaveBody(statusCode())) {
			this.length = BodyLength.announcedBy(this.nettyHeaders);
		}
		this.channel.write(head, false);
	}

	/**
	 * Whether the body written ends short of the {@code Content-Length} its head announced, once the handler is
	 * done: the response can not be completed, and must end as a failed one.
	 * @return a description of the shortfall, or {@code null} when the body is whole
	 */
	public String shortfall() {
		if (this.aborted || this.lastWritten || this.length == null) {
			return null;
		}
		return this.length.shortfall();
	}

	void flushNow() {
		this.flushScheduled = false;
		if (!this.aborted) {
			if (this.encoding != null && !this.lastWritten && !this.encoding.flush()) {
				return;
			}
			this.channel.channel().flush();
		}
	}

	private void scheduleFlush() {
		if (!this.flushScheduled) {
			this.flushScheduled = true;
			this.eventLoop.execute(this.flushTask);
		}
	}

	/**
	 * End the response once the handler is done: write the last part, or the whole response if nothing was
	 * written yet.
	 * @return the future of the last write
	 */
	public ChannelFuture finish() {
		if (!this.headWritten) {
			writeFull(null);
		}
		else if (!this.lastWritten) {
			this.lastWritten = true;
			this.lastWrite = this.channel.write(
					(this.encoding != null) ? this.encoding.last() : LastHttpContent.EMPTY_LAST_CONTENT, true);
		}
		return this.lastWrite;
	}

	/**
	 * Answer with an error status and no body, when nothing was written yet.
	 * @return the future of the write
	 */
	public ChannelFuture writeError(HttpResponseStatus status) {
		this.nettyHeaders.clear();
		this.nettyHeaders.setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
		this.errorStatus = HttpStatusCode.valueOf(status.code());
		HttpResponse head = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER,
				this.nettyHeaders, EmptyHttpHeaders.INSTANCE);
		this.channel.prepareHead(head, false);
		this.headWritten = true;
		this.lastWritten = true;
		this.lastWrite = this.channel.write(head, true);
		return this.lastWrite;
	}

	/**
	 * The connection is gone: drop whatever is still written.
	 */
	public void abort() {
		this.aborted = true;
		if (this.encoding != null) {
			this.encoding.close();
		}
		ResponseWrite write = this.currentWrite;
		if (write != null) {
			write.cancel();
		}
	}

	void writeStarted(ResponseWrite write) {
		this.currentWrite = write;
	}

	void writeEnded(ResponseWrite write) {
		if (this.currentWrite == write) {
			this.currentWrite = null;
		}
	}

	public void onWritabilityChanged() {
		ResponseWrite write = this.currentWrite;
		if (write != null && isWritable()) {
			write.resume();
		}
	}

	public String contentLength() {
		return this.nettyHeaders.get(HttpHeaderNames.CONTENT_LENGTH);
	}

	public int statusCode() {
		return getStatusCode().value();
	}

	private HttpResponseStatus status() {
		return HttpResponseStatus.valueOf(statusCode());
	}

	private static boolean mayHaveBody(int status) {
		return status >= 200 && status != 204 && status != 304;
	}

	private static ByteBuf toByteBuf(DataBuffer buffer) {
		if (buffer instanceof NettyDataBuffer netty) {
			return netty.getNativeBuffer();
		}
		ByteBuf copy = Unpooled.buffer(buffer.readableByteCount());
		try (DataBuffer.ByteBufferIterator iterator = buffer.readableByteBuffers()) {
			iterator.forEachRemaining(copy::writeBytes);
		}
		finally {
			DataBufferUtils.release(buffer);
		}
		return copy;
	}

	static void release(DataBuffer buffer) {
		if (buffer != null) {
			DataBufferUtils.release(buffer);
		}
	}

}
