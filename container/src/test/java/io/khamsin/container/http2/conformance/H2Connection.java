package io.khamsin.container.http2.conformance;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * An HTTP/2 client that writes frames exactly as a case asks, valid or not (lengths that lie, reserved bits set, bad
 * padding, frames on streams where they are not allowed), and reads the server's frames back on a thread of its own,
 * decoding header blocks in arrival order. What the server answered is judged by {@link #expect()}.
 * <p>
 * The client holds no buffer between calls: frames are plain byte arrays, and HPACK borrows a pooled buffer only for
 * the length of one call, so it adds nothing to what the leak detector sees.
 */
final class H2Connection implements Closeable {

	static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	static final int DEFAULT_MAX_FRAME_SIZE = 16_384;

	static final int SETTINGS_HEADER_TABLE_SIZE = 0x1;

	static final int SETTINGS_ENABLE_PUSH = 0x2;

	static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;

	static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;

	static final int SETTINGS_MAX_FRAME_SIZE = 0x5;

	static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

	private static final Event CLOSED = new Event(null, "connection closed");

	private final Endpoint endpoint;

	private final Socket socket;

	private final OutputStream out;

	private final InputStream in;

	private final Duration timeout;

	private final HpackCodec hpack = new HpackCodec();

	private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

	private final Map<Integer, Long> serverSettings = Collections.synchronizedMap(new LinkedHashMap<>());

	private volatile boolean peerClosed;

	private volatile Frame goAway;

	private Thread reader;

	private boolean closedSeen;

	private H2Connection(Endpoint endpoint, Socket socket, Duration timeout) throws IOException {
		this.endpoint = endpoint;
		this.socket = socket;
		this.out = socket.getOutputStream();
		this.in = socket.getInputStream();
		this.timeout = timeout;
	}

	/**
	 * Connect without sending anything.
	 * @param endpoint where to connect
	 * @param timeout how long an expectation waits for the server
	 * @param receiveBuffer the socket's receive buffer, or 0 for the system's (floods use a small one, so that the
	 * server's answers back up into its own buffers)
	 * @return the connection
	 * @throws IOException when it cannot connect
	 */
	static H2Connection open(Endpoint endpoint, Duration timeout, int receiveBuffer) throws IOException {
		return new H2Connection(endpoint, endpoint.connect(receiveBuffer), timeout);
	}

	/**
	 * The connection preface both ways (RFC 9113 section 3.4): the client's magic and SETTINGS, the server's SETTINGS
	 * (which must be the first frame it sends) acknowledged, and the acknowledgement of the client's SETTINGS.
	 * @param settings the client's settings as identifier and value pairs
	 * @return this connection
	 * @throws IOException when the socket fails
	 */
	H2Connection handshake(long... settings) throws IOException {
		send(PREFACE);
		settings(settings);
		Event first = next(this.timeout);
		if (first == null || first.frame() == null || !first.frame().is(Frame.SETTINGS) || first.frame().isAck()) {
			throw new AssertionError("The server's preface must be a SETTINGS frame without ACK (RFC 9113 section "
					+ "3.4), got " + ((first != null) ? first : "nothing in " + this.timeout));
		}
		recordSettings(first.frame());
		settingsAck();
		expect().settingsAck();
		return this;
	}

	Endpoint endpoint() {
		return this.endpoint;
	}

	Duration timeout() {
		return this.timeout;
	}

	/** @return the settings the server sent in its preface, by identifier */
	Map<Integer, Long> serverSettings() {
		return this.serverSettings;
	}

	int serverMaxFrameSize() {
		return this.serverSettings.getOrDefault(SETTINGS_MAX_FRAME_SIZE, (long) DEFAULT_MAX_FRAME_SIZE).intValue();
	}

	H2Expectations expect() {
		return new H2Expectations(this, this.timeout);
	}

	H2Expectations expectWithin(Duration wait) {
		return new H2Expectations(this, wait);
	}

	// Writing

	/** Send bytes as they are. */
	synchronized H2Connection send(byte[] bytes) throws IOException {
		this.out.write(bytes);
		this.out.flush();
		return this;
	}

	/** Send a frame whose length field is what its payload holds. */
	H2Connection frame(int type, int flags, int streamId, byte[] payload) throws IOException {
		return frame(payload.length, type, flags, streamId, payload);
	}

	/**
	 * Send a frame with a length field that may say something else than the payload, and a stream field written as
	 * given (its reserved bit included).
	 */
	H2Connection frame(int length, int type, int flags, int streamField, byte[] payload) throws IOException {
		return send(encodeFrame(length, type, flags, streamField, payload));
	}

	/** The bytes of a frame, for a {@link Flood} to repeat. */
	static byte[] encodeFrame(int type, int flags, int streamField, byte[] payload) {
		return encodeFrame(payload.length, type, flags, streamField, payload);
	}

	static byte[] encodeFrame(int length, int type, int flags, int streamField, byte[] payload) {
		byte[] bytes = new byte[9 + payload.length];
		bytes[0] = (byte) (length >>> 16);
		bytes[1] = (byte) (length >>> 8);
		bytes[2] = (byte) length;
		bytes[3] = (byte) type;
		bytes[4] = (byte) flags;
		putInt(bytes, 5, streamField);
		System.arraycopy(payload, 0, bytes, 9, payload.length);
		return bytes;
	}

	/** Four bytes in network order, as RST_STREAM, WINDOW_UPDATE and GOAWAY carry them. */
	static byte[] int32(long value) {
		byte[] bytes = new byte[4];
		putInt(bytes, 0, (int) value);
		return bytes;
	}

	H2Connection headers(int streamId, byte[] block, boolean endStream, boolean endHeaders) throws IOException {
		int flags = (endStream ? Frame.FLAG_END_STREAM : 0) | (endHeaders ? Frame.FLAG_END_HEADERS : 0);
		return frame(Frame.HEADERS, flags, streamId, block);
	}

	H2Connection headersPadded(int streamId, byte[] block, int padLength, boolean endStream) throws IOException {
		byte[] payload = new byte[1 + block.length + padLength];
		payload[0] = (byte) padLength;
		System.arraycopy(block, 0, payload, 1, block.length);
		int flags = Frame.FLAG_PADDED | Frame.FLAG_END_HEADERS | (endStream ? Frame.FLAG_END_STREAM : 0);
		return frame(Frame.HEADERS, flags, streamId, payload);
	}

	H2Connection headersWithPriority(int streamId, byte[] block, int dependency, boolean exclusive, int weight,
			boolean endStream) throws IOException {
		byte[] payload = new byte[5 + block.length];
		putInt(payload, 0, dependency | (exclusive ? 0x80000000 : 0));
		payload[4] = (byte) weight;
		System.arraycopy(block, 0, payload, 5, block.length);
		int flags = Frame.FLAG_PRIORITY | Frame.FLAG_END_HEADERS | (endStream ? Frame.FLAG_END_STREAM : 0);
		return frame(Frame.HEADERS, flags, streamId, payload);
	}

	H2Connection continuation(int streamId, byte[] block, boolean endHeaders) throws IOException {
		return frame(Frame.CONTINUATION, endHeaders ? Frame.FLAG_END_HEADERS : 0, streamId, block);
	}

	H2Connection data(int streamId, byte[] data, boolean endStream) throws IOException {
		return frame(Frame.DATA, endStream ? Frame.FLAG_END_STREAM : 0, streamId, data);
	}

	H2Connection dataPadded(int streamId, byte[] data, int padLength, boolean endStream) throws IOException {
		byte[] payload = new byte[1 + data.length + padLength];
		payload[0] = (byte) padLength;
		System.arraycopy(data, 0, payload, 1, data.length);
		return frame(Frame.DATA, Frame.FLAG_PADDED | (endStream ? Frame.FLAG_END_STREAM : 0), streamId, payload);
	}

	H2Connection priority(int streamId, int dependency, boolean exclusive, int weight) throws IOException {
		byte[] payload = new byte[5];
		putInt(payload, 0, dependency | (exclusive ? 0x80000000 : 0));
		payload[4] = (byte) weight;
		return frame(Frame.PRIORITY, 0, streamId, payload);
	}

	H2Connection rstStream(int streamId, long errorCode) throws IOException {
		byte[] payload = new byte[4];
		putInt(payload, 0, (int) errorCode);
		return frame(Frame.RST_STREAM, 0, streamId, payload);
	}

	/** A SETTINGS frame with identifier and value pairs. */
	H2Connection settings(long... pairs) throws IOException {
		byte[] payload = new byte[pairs.length / 2 * 6];
		for (int i = 0; i + 1 < pairs.length; i += 2) {
			int at = i / 2 * 6;
			payload[at] = (byte) (pairs[i] >>> 8);
			payload[at + 1] = (byte) pairs[i];
			putInt(payload, at + 2, (int) pairs[i + 1]);
		}
		return frame(Frame.SETTINGS, 0, 0, payload);
	}

	H2Connection settingsAck() throws IOException {
		return frame(Frame.SETTINGS, Frame.FLAG_ACK, 0, new byte[0]);
	}

	H2Connection ping(boolean ack, byte[] opaque) throws IOException {
		return frame(Frame.PING, ack ? Frame.FLAG_ACK : 0, 0, opaque);
	}

	H2Connection goAway(int lastStreamId, long errorCode, byte[] debug) throws IOException {
		byte[] payload = new byte[8 + debug.length];
		putInt(payload, 0, lastStreamId);
		putInt(payload, 4, (int) errorCode);
		System.arraycopy(debug, 0, payload, 8, debug.length);
		return frame(Frame.GOAWAY, 0, 0, payload);
	}

	H2Connection windowUpdate(int streamId, long increment) throws IOException {
		byte[] payload = new byte[4];
		putInt(payload, 0, (int) increment);
		return frame(Frame.WINDOW_UPDATE, 0, streamId, payload);
	}

	H2Connection pushPromise(int streamId, int promisedStreamId, byte[] block) throws IOException {
		byte[] payload = new byte[4 + block.length];
		putInt(payload, 0, promisedStreamId);
		System.arraycopy(block, 0, payload, 4, block.length);
		return frame(Frame.PUSH_PROMISE, Frame.FLAG_END_HEADERS, streamId, payload);
	}

	// Requests

	/** The fields of a request for the target's root, in the order a client sends them. */
	Http2Headers request(String method) {
		return new DefaultHttp2Headers(false).method(method)
			.scheme(this.endpoint.scheme())
			.path("/")
			.authority(this.endpoint.authority());
	}

	/** The same request as {@link #request(String)}, written field by field so that a case can change it. */
	HeaderBlock requestBlock(String method) {
		return HeaderBlock.create()
			.field(":method", method)
			.field(":scheme", this.endpoint.scheme())
			.field(":path", "/")
			.field(":authority", this.endpoint.authority());
	}

	/** Encode with this connection's HPACK encoder (indexing and Huffman), which keeps state per connection. */
	byte[] encode(Http2Headers headers) {
		return this.hpack.encode(headers);
	}

	/** A GET for the root, in one HEADERS frame that ends the stream. */
	H2Connection get(int streamId) throws IOException {
		return headers(streamId, encode(request("GET")), true, true);
	}

	/** A POST for the root with its body in one DATA frame. */
	H2Connection post(int streamId, byte[] body) throws IOException {
		headers(streamId, encode(request("POST")), false, true);
		return data(streamId, body, true);
	}

	// Reading

	/**
	 * The next thing the server did: a frame, or the connection closed; {@code null} when nothing came in time.
	 */
	Event next(Duration wait) {
		startReading();
		if (this.closedSeen) {
			return CLOSED;
		}
		try {
			Event event = this.events.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
			if (event != null && event.frame() == null) {
				this.closedSeen = true;
			}
			return event;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	/** @return whether the server closed the connection or reset it (as far as the reader has seen) */
	boolean peerClosed() {
		return this.peerClosed;
	}

	/** @return the GOAWAY frame the server sent, if the reader has seen one */
	Frame goAwaySeen() {
		return this.goAway;
	}

	synchronized void startReading() {
		if (this.reader == null) {
			this.reader = new Thread(this::read, "h2-conformance-reader-" + this.socket.getLocalPort());
			this.reader.setDaemon(true);
			this.reader.start();
		}
	}

	private void read() {
		DataInputStream input = new DataInputStream(this.in);
		HeaderBlockAssembly block = null;
		try {
			while (true) {
				int length = input.readUnsignedByte() << 16 | input.readUnsignedShort();
				int type = input.readUnsignedByte();
				int flags = input.readUnsignedByte();
				int streamId = input.readInt() & 0x7fffffff;
				byte[] payload = new byte[length];
				input.readFully(payload);
				Http2Headers headers = null;
				String problem = null;
				if (type == Frame.HEADERS || type == Frame.PUSH_PROMISE) {
					block = new HeaderBlockAssembly(streamId, fragment(type, flags, payload));
				}
				else if (type == Frame.CONTINUATION && block != null) {
					block.add(payload);
				}
				if ((type == Frame.HEADERS || type == Frame.PUSH_PROMISE || type == Frame.CONTINUATION)
						&& (flags & Frame.FLAG_END_HEADERS) != 0 && block != null) {
					try {
						headers = this.hpack.decode(block.streamId, block.bytes.toByteArray());
					}
					catch (Http2Exception ex) {
						problem = "the server's header block does not decode: " + ex.getMessage();
					}
					block = null;
				}
				Frame frame = new Frame(type, flags, streamId, payload, headers);
				if (type == Frame.GOAWAY) {
					this.goAway = frame;
				}
				this.events.add(new Event(frame, problem));
			}
		}
		catch (EOFException ex) {
			// the server closed the connection
		}
		catch (IOException ex) {
			// a reset, or the test closed the socket
		}
		finally {
			this.peerClosed = true;
			this.events.add(CLOSED);
		}
	}

	private static byte[] fragment(int type, int flags, byte[] payload) {
		int start = 0;
		int padLength = 0;
		if ((flags & Frame.FLAG_PADDED) != 0 && payload.length > 0) {
			padLength = payload[0] & 0xff;
			start = 1;
		}
		if (type == Frame.HEADERS && (flags & Frame.FLAG_PRIORITY) != 0) {
			start += 5;
		}
		if (type == Frame.PUSH_PROMISE) {
			start += 4;
		}
		int end = Math.max(start, payload.length - padLength);
		byte[] fragment = new byte[Math.max(0, end - start)];
		System.arraycopy(payload, Math.min(start, payload.length), fragment, 0, fragment.length);
		return fragment;
	}

	private void recordSettings(Frame settings) {
		byte[] payload = settings.payload();
		for (int at = 0; at + 6 <= payload.length; at += 6) {
			int id = ((payload[at] & 0xff) << 8) | (payload[at + 1] & 0xff);
			long value = ((payload[at + 2] & 0xffL) << 24) | ((payload[at + 3] & 0xffL) << 16)
					| ((payload[at + 4] & 0xffL) << 8) | (payload[at + 5] & 0xffL);
			this.serverSettings.put(id, value);
		}
	}

	private static void putInt(byte[] bytes, int at, int value) {
		bytes[at] = (byte) (value >>> 24);
		bytes[at + 1] = (byte) (value >>> 16);
		bytes[at + 2] = (byte) (value >>> 8);
		bytes[at + 3] = (byte) value;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * Something the server did.
	 *
	 * @param frame the frame it sent, or {@code null} when it closed the connection
	 * @param problem what was wrong with the frame, such as a header block that does not decode, or {@code null}
	 */
	record Event(Frame frame, String problem) {

		boolean closed() {
			return this.frame == null;
		}

		@Override
		public String toString() {
			return closed() ? "connection closed" : this.frame + ((this.problem != null) ? " [" + this.problem + "]" : "");
		}

	}

	private static final class HeaderBlockAssembly {

		private final int streamId;

		private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

		HeaderBlockAssembly(int streamId, byte[] first) {
			this.streamId = streamId;
			this.bytes.writeBytes(first);
		}

		void add(byte[] fragment) {
			this.bytes.writeBytes(fragment);
		}

	}

}
