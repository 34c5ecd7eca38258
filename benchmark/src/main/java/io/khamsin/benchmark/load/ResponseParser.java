package io.khamsin.benchmark.load;

import io.netty.buffer.ByteBuf;

/**
 * A lean streaming parser of HTTP/1.1 responses (RFC 9112) that keeps only what the generator needs: the status,
 * the number of body bytes and whether the server closes the connection. Bodies are skipped, never copied, so that
 * the load core spends its time sending rather than decoding; Netty's {@code HttpResponseDecoder} allocated a
 * message and a header map per response.
 */
final class ResponseParser {

	/** Receives each complete response. */
	interface Listener {

		void onResponse(int status, long bodyBytes, boolean close);

	}

	private enum State {
		STATUS_LINE, HEADER_LINE, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILER_LINE, BODY_UNTIL_CLOSE
	}

	private static final int MAX_LINE = 16 * 1024;

	private final Listener listener;

	private final byte[] line = new byte[MAX_LINE];

	private final byte[] scratch = new byte[4096];

	private int lineLength;

	private State state = State.STATUS_LINE;

	private int status;

	private long contentLength;

	private boolean chunked;

	private boolean close;

	private long remaining;

	private long bodyBytes;

	private boolean expectBodyless;

	ResponseParser(Listener listener) {
		this.listener = listener;
	}

	/**
	 * Tell the parser that the next response answers a HEAD request and has no body whatever its headers say.
	 */
	void expectBodyless() {
		this.expectBodyless = true;
	}

	/**
	 * Parse the readable bytes of {@code in}; consumes all of them. Heads are copied once into a scratch array
	 * and parsed there, bodies are skipped by index: one access to the buffer per read, which keeps the parser
	 * cheap even under Netty's paranoid leak detector (it records a stack trace on every buffer access).
	 * @throws IllegalStateException on a malformed response
	 */
	void parse(ByteBuf in) {
		int index = in.readerIndex();
		int end = in.writerIndex();
		while (index < end) {
			if (inBody()) {
				index += skipBody(end - index);
			}
			else {
				int n = Math.min(end - index, this.scratch.length);
				in.getBytes(index, this.scratch, 0, n);
				parse(this.scratch, n);
				index += n;
			}
		}
		in.readerIndex(end);
	}

	private boolean inBody() {
		return this.state == State.FIXED_BODY || this.state == State.CHUNK_DATA || this.state == State.CHUNK_DATA_END
				|| this.state == State.BODY_UNTIL_CLOSE;
	}

	private void parse(byte[] bytes, int length) {
		int i = 0;
		while (i < length) {
			if (inBody()) {
				i += skipBody(length - i);
				continue;
			}
			int newline = -1;
			for (int j = i; j < length; j++) {
				if (bytes[j] == '\n') {
					newline = j;
					break;
				}
			}
			int stop = (newline < 0) ? length : newline;
			int n = stop - i;
			if (this.lineLength + n > MAX_LINE) {
				throw new IllegalStateException("response line longer than " + MAX_LINE + " bytes");
			}
			System.arraycopy(bytes, i, this.line, this.lineLength, n);
			this.lineLength += n;
			if (newline < 0) {
				return;
			}
			i = newline + 1;
			if (this.lineLength > 0 && this.line[this.lineLength - 1] == '\r') {
				this.lineLength--;
			}
			onLine();
		}
	}

	private int skipBody(int available) {
		if (this.state == State.BODY_UNTIL_CLOSE) {
			this.bodyBytes += available;
			return available;
		}
		int n = (int) Math.min(this.remaining, available);
		this.remaining -= n;
		if (this.state != State.CHUNK_DATA_END) {
			this.bodyBytes += n;
		}
		if (this.remaining == 0) {
			if (this.state == State.FIXED_BODY) {
				complete();
			}
			else if (this.state == State.CHUNK_DATA) {
				this.state = State.CHUNK_DATA_END;
				this.remaining = 2;
			}
			else {
				this.state = State.CHUNK_SIZE;
			}
		}
		return n;
	}

	/**
	 * The connection closed: completes a response whose body runs until close.
	 */
	void onClose() {
		if (this.state == State.BODY_UNTIL_CLOSE) {
			complete();
		}
	}

	private void onLine() {
		int length = this.lineLength;
		this.lineLength = 0;
		switch (this.state) {
			case STATUS_LINE -> {
				if (length < 12 || this.line[0] != 'H' || this.line[8] != ' ') {
					throw new IllegalStateException("not an HTTP/1.x status line: " + new String(this.line, 0, length));
				}
				this.status = (this.line[9] - '0') * 100 + (this.line[10] - '0') * 10 + (this.line[11] - '0');
				this.contentLength = -1;
				this.chunked = false;
				this.close = this.line[7] == '0';
				this.bodyBytes = 0;
				this.state = State.HEADER_LINE;
			}
			case HEADER_LINE -> {
				if (length == 0) {
					endOfHead();
				}
				else {
					header(length);
				}
			}
			case CHUNK_SIZE -> {
				long size = 0;
				for (int i = 0; i < length; i++) {
					int digit = Character.digit(this.line[i], 16);
					if (digit < 0) {
						break;
					}
					size = size * 16 + digit;
				}
				if (size == 0) {
					this.state = State.TRAILER_LINE;
				}
				else {
					this.remaining = size;
					this.state = State.CHUNK_DATA;
				}
			}
			case TRAILER_LINE -> {
				if (length == 0) {
					complete();
				}
			}
			default -> throw new IllegalStateException(this.state.name());
		}
	}

	private void header(int length) {
		int colon = -1;
		for (int i = 0; i < length; i++) {
			if (this.line[i] == ':') {
				colon = i;
				break;
			}
		}
		if (colon < 0) {
			throw new IllegalStateException("malformed header line: " + new String(this.line, 0, length));
		}
		if (nameIs("content-length", colon)) {
			long value = 0;
			for (int i = colon + 1; i < length; i++) {
				byte b = this.line[i];
				if (b >= '0' && b <= '9') {
					value = value * 10 + (b - '0');
				}
			}
			this.contentLength = value;
		}
		else if (nameIs("transfer-encoding", colon)) {
			this.chunked = valueContains("chunked", colon + 1, length);
		}
		else if (nameIs("connection", colon)) {
			if (valueContains("close", colon + 1, length)) {
				this.close = true;
			}
			else if (valueContains("keep-alive", colon + 1, length)) {
				this.close = false;
			}
		}
	}

	private void endOfHead() {
		boolean bodyless = this.expectBodyless || this.status / 100 == 1 || this.status == 204 || this.status == 304;
		this.expectBodyless = false;
		if (bodyless || (!this.chunked && this.contentLength == 0)) {
			complete();
		}
		else if (this.chunked) {
			this.state = State.CHUNK_SIZE;
		}
		else if (this.contentLength > 0) {
			this.remaining = this.contentLength;
			this.state = State.FIXED_BODY;
		}
		else {
			this.close = true;
			this.state = State.BODY_UNTIL_CLOSE;
		}
	}

	private void complete() {
		this.state = State.STATUS_LINE;
		this.listener.onResponse(this.status, this.bodyBytes, this.close);
	}

	private boolean nameIs(String name, int length) {
		if (length != name.length()) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			if ((this.line[i] | 0x20) != name.charAt(i) && this.line[i] != name.charAt(i)) {
				return false;
			}
		}
		return true;
	}

	private boolean valueContains(String token, int from, int to) {
		outer: for (int i = from; i + token.length() <= to; i++) {
			for (int j = 0; j < token.length(); j++) {
				if ((this.line[i + j] | 0x20) != token.charAt(j)) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

}
