package io.khamsin.container.compression;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * What becomes of one response: compressed with a coding, or not, and why; and whether it carries
 * {@code Vary: Accept-Encoding} because another request for it could have been answered compressed. Made by
 * {@link ResponseCompression#decide}; immutable and shared by every response decided alike.
 */
public final class CompressionDecision {

	/**
	 * Why a response is or is not compressed, in the order the rules are applied.
	 */
	public enum Reason {

		/** Compression is switched off. */
		DISABLED(false),

		/** A 1xx or 204 response: no body. */
		NO_CONTENT(false),

		/** The application set a {@code Content-Encoding} itself. */
		ALREADY_ENCODED(false),

		/** The {@code Content-Type} is not one of the compressed types. */
		TYPE_NOT_COMPRESSED(false),

		/** The body is known to be smaller than the threshold. */
		TOO_SMALL(false),

		/** A 304: no body, but the 200 it stands for could be compressed. */
		NOT_MODIFIED(true),

		/** A response to HEAD: no body is sent. */
		HEAD(true),

		/** A range response (206 or {@code Content-Range}): its byte ranges are of the identity body. */
		RANGE(true),

		/** The body goes out as a file region (sendfile), whose bytes never pass through the process. */
		FILE_REGION(true),

		/** The {@code User-Agent} is excluded. */
		USER_AGENT_EXCLUDED(true),

		/** The client accepts none of the codings offered. */
		NOT_ACCEPTED(true),

		/** Compressed. */
		COMPRESSED(true);

		private final boolean varies;

		Reason(boolean varies) {
			this.varies = varies;
		}

		/**
		 * Whether a response decided for this reason carries {@code Vary: Accept-Encoding}.
		 * @return {@code true} if it varies
		 */
		public boolean varies() {
			return this.varies;
		}

	}

	private static final String ACCEPT_ENCODING = "Accept-Encoding";

	private final Reason reason;

	private final ContentCoding coding;

	private final CompressionConfig config;

	CompressionDecision(Reason reason, ContentCoding coding, CompressionConfig config) {
		this.reason = reason;
		this.coding = coding;
		this.config = config;
	}

	/**
	 * Why the response is or is not compressed.
	 * @return the reason
	 */
	public Reason reason() {
		return this.reason;
	}

	/**
	 * The coding the response is compressed with.
	 * @return the coding, or {@code null} when it is not compressed
	 */
	public ContentCoding coding() {
		return this.coding;
	}

	/**
	 * Whether the response is compressed.
	 * @return {@code true} if it is
	 */
	public boolean compresses() {
		return this.coding != null;
	}

	/**
	 * Whether the response carries {@code Vary: Accept-Encoding}.
	 * @return {@code true} if it does
	 */
	public boolean varies() {
		return this.reason.varies;
	}

	/**
	 * Complete the response's headers before its head is written: {@code Vary: Accept-Encoding} where the response
	 * varies; and when it is compressed, its {@code Content-Encoding}, no {@code Content-Length} (the length of a
	 * compressed single buffer is set once it is encoded), no {@code Accept-Ranges} (ranges are served of the
	 * identity body only), and a strong {@code ETag} made weak, since the compressed bytes are not those it
	 * validates (RFC 9110 section 8.8.3; nginx does the same).
	 * @param headers the response headers
	 */
	public void applyTo(HttpHeaders headers) {
		if (varies()) {
			addVary(headers);
		}
		if (this.coding == null) {
			return;
		}
		headers.set(HttpHeaderNames.CONTENT_ENCODING, this.coding.token());
		headers.remove(HttpHeaderNames.CONTENT_LENGTH);
		headers.remove(HttpHeaderNames.ACCEPT_RANGES);
		String etag = headers.get(HttpHeaderNames.ETAG);
		if (etag != null && etag.startsWith("\"")) {
			headers.set(HttpHeaderNames.ETAG, "W/" + etag);
		}
	}

	private static void addVary(HttpHeaders headers) {
		for (String value : headers.getAll(HttpHeaderNames.VARY)) {
			for (String field : value.split(",")) {
				String name = field.trim();
				if (name.equals("*") || name.equalsIgnoreCase(ACCEPT_ENCODING)) {
					return;
				}
			}
		}
		headers.add(HttpHeaderNames.VARY, ACCEPT_ENCODING);
	}

	/**
	 * A new encoder for the body of this response, to be closed (or finished) by the caller.
	 * @param allocator the allocator of the buffers it returns
	 * @return the encoder
	 * @throws IllegalStateException if the response is not compressed
	 */
	public ContentEncoder newEncoder(ByteBufAllocator allocator) {
		if (this.coding == null) {
			throw new IllegalStateException("The response is not compressed (" + this.reason + ")");
		}
		return AbstractContentEncoder.create(this.coding, this.config, allocator);
	}

	@Override
	public String toString() {
		return (this.coding != null) ? this.reason + " (" + this.coding.token() + ")" : this.reason.toString();
	}

}
