package io.khamsin.container.http1.smuggling;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;

/**
 * HTTP/2 with prior knowledge over a plain socket, for requests no HTTP/2 library would send: field names and values
 * are written as HPACK literals byte for byte, whatever they hold, and the DATA frames as given. One request, on
 * stream 1; the answer is read as the frames come (RFC 9113).
 */
final class RawH2Connection implements Closeable {

	private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	private static final int DATA = 0x0;

	private static final int HEADERS = 0x1;

	private static final int RST_STREAM = 0x3;

	private static final int SETTINGS = 0x4;

	private static final int PING = 0x6;

	private static final int GOAWAY = 0x7;

	private static final int CONTINUATION = 0x9;

	private static final int END_STREAM = 0x1;

	private static final int END_HEADERS = 0x4;

	private final Socket socket;

	private final DataInputStream in;

	private final OutputStream out;

	RawH2Connection(int port, int timeoutMillis) throws IOException {
		this.socket = new Socket("127.0.0.1", port);
		this.socket.setSoTimeout(timeoutMillis);
		this.socket.setTcpNoDelay(true);
		this.in = new DataInputStream(this.socket.getInputStream());
		this.out = this.socket.getOutputStream();
		this.out.write(PREFACE);
		this.out.write(frame(SETTINGS, 0, 0, new byte[0]));
	}

	/**
	 * Send the request on stream 1: a HEADERS frame, then one DATA frame for each payload, the last one ending the
	 * stream (or the HEADERS frame, when there is no payload).
	 */
	void send(List<String[]> fields, List<byte[]> data) throws IOException {
		ByteArrayOutputStream block = new ByteArrayOutputStream();
		for (String[] field : fields) {
			// A literal field line without indexing and with a literal name, no Huffman coding (RFC 7541, 6.2.2).
			block.write(0x00);
			literal(block, field[0].getBytes(StandardCharsets.ISO_8859_1));
			literal(block, field[1].getBytes(StandardCharsets.ISO_8859_1));
		}
		this.out.write(frame(HEADERS, END_HEADERS | (data.isEmpty() ? END_STREAM : 0), 1, block.toByteArray()));
		for (int i = 0; i < data.size(); i++) {
			this.out.write(frame(DATA, (i == data.size() - 1) ? END_STREAM : 0, 1, data.get(i)));
		}
		this.out.flush();
	}

	/**
	 * Read until stream 1 ends, is reset, or the connection ends.
	 * @return what came back
	 */
	Answer read() throws IOException {
		DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false);
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		ByteArrayOutputStream block = new ByteArrayOutputStream();
		int status = 0;
		while (true) {
			int length;
			try {
				length = (this.in.readUnsignedShort() << 8) | this.in.readUnsignedByte();
			}
			catch (EOFException ex) {
				return new Answer(status, body.toString(StandardCharsets.ISO_8859_1), "closed");
			}
			catch (SocketTimeoutException ex) {
				return new Answer(status, body.toString(StandardCharsets.ISO_8859_1), "timeout");
			}
			catch (IOException ex) {
				return new Answer(status, body.toString(StandardCharsets.ISO_8859_1), "reset by peer");
			}
			int type = this.in.readUnsignedByte();
			int flags = this.in.readUnsignedByte();
			int stream = this.in.readInt() & 0x7fffffff;
			byte[] payload = this.in.readNBytes(length);
			if (type == SETTINGS && (flags & 0x1) == 0) {
				this.out.write(frame(SETTINGS, 0x1, 0, new byte[0]));
				this.out.flush();
			}
			else if (type == PING && (flags & 0x1) == 0) {
				this.out.write(frame(PING, 0x1, 0, payload));
				this.out.flush();
			}
			else if (type == GOAWAY) {
				return new Answer(status, body.toString(StandardCharsets.ISO_8859_1),
						"GOAWAY " + errorCode(payload, 4));
			}
			else if (stream == 1 && type == RST_STREAM) {
				return new Answer(status, body.toString(StandardCharsets.ISO_8859_1),
						"RST_STREAM " + errorCode(payload, 0));
			}
			else if (stream == 1 && (type == HEADERS || type == CONTINUATION)) {
				block.write(fragment(type, flags, payload));
				if ((flags & END_HEADERS) != 0) {
					Http2Headers headers = decode(decoder, block.toByteArray());
					block.reset();
					int code = Integer.parseInt(headers.status().toString());
					if (code >= 200) {
						status = code;
					}
				}
				if ((flags & END_STREAM) != 0) {
					return new Answer(status, body.toString(StandardCharsets.ISO_8859_1), null);
				}
			}
			else if (stream == 1 && type == DATA) {
				int padding = ((flags & 0x8) != 0) ? payload[0] & 0xff : 0;
				int offset = ((flags & 0x8) != 0) ? 1 : 0;
				body.write(payload, offset, payload.length - offset - padding);
				if ((flags & END_STREAM) != 0) {
					return new Answer(status, body.toString(StandardCharsets.ISO_8859_1), null);
				}
			}
		}
	}

	private static Http2Headers decode(DefaultHttp2HeadersDecoder decoder, byte[] block) throws IOException {
		ByteBuf buffer = Unpooled.wrappedBuffer(block);
		try {
			return decoder.decodeHeaders(1, buffer);
		}
		catch (Http2Exception ex) {
			throw new IOException("Undecodable response headers", ex);
		}
		finally {
			buffer.release();
		}
	}

	/** @return the header block fragment of a HEADERS frame without its padding and priority, or a CONTINUATION's */
	private static byte[] fragment(int type, int flags, byte[] payload) {
		if (type != HEADERS) {
			return payload;
		}
		int offset = 0;
		int padding = 0;
		if ((flags & 0x8) != 0) {
			padding = payload[0] & 0xff;
			offset = 1;
		}
		if ((flags & 0x20) != 0) {
			offset += 5;
		}
		byte[] fragment = new byte[payload.length - offset - padding];
		System.arraycopy(payload, offset, fragment, 0, fragment.length);
		return fragment;
	}

	private static long errorCode(byte[] payload, int at) {
		return ((payload[at] & 0xffL) << 24) | ((payload[at + 1] & 0xff) << 16) | ((payload[at + 2] & 0xff) << 8)
				| (payload[at + 3] & 0xff);
	}

	private static void literal(ByteArrayOutputStream block, byte[] text) {
		// A string literal's length as an HPACK integer with a 7-bit prefix (RFC 7541, 5.1), Huffman bit clear.
		int length = text.length;
		if (length < 127) {
			block.write(length);
		}
		else {
			block.write(127);
			length -= 127;
			while (length >= 128) {
				block.write((length & 0x7f) | 0x80);
				length >>>= 7;
			}
			block.write(length);
		}
		block.writeBytes(text);
	}

	private static byte[] frame(int type, int flags, int stream, byte[] payload) {
		byte[] frame = new byte[9 + payload.length];
		frame[0] = (byte) (payload.length >>> 16);
		frame[1] = (byte) (payload.length >>> 8);
		frame[2] = (byte) payload.length;
		frame[3] = (byte) type;
		frame[4] = (byte) flags;
		frame[5] = (byte) (stream >>> 24);
		frame[6] = (byte) (stream >>> 16);
		frame[7] = (byte) (stream >>> 8);
		frame[8] = (byte) stream;
		System.arraycopy(payload, 0, frame, 9, payload.length);
		return frame;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	/**
	 * What came back for the request.
	 * @param status the final status, {@code 0} for none
	 * @param body the response body received
	 * @param end how the exchange ended when not by the end of the stream: {@code RST_STREAM <code>},
	 * {@code GOAWAY <code>}, {@code closed}, {@code reset by peer} or {@code timeout}; {@code null} when it ended
	 */
	record Answer(int status, String body, String end) {

		@Override
		public String toString() {
			String text = (this.status != 0) ? Integer.toString(this.status) : "";
			if (this.end != null) {
				text = text.isEmpty() ? this.end : text + ", " + this.end;
			}
			return text;
		}

	}

}
