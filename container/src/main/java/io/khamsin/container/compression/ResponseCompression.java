package io.khamsin.container.compression;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

import io.khamsin.container.compression.CompressionDecision.Reason;

/**
 * The compression rules of one server, built once from its {@link CompressionConfig}: decides per response whether
 * its body is compressed and with which coding. The rules, in order, are Boot's where Boot defines them
 * (enabled, {@code mime-types}, {@code min-response-size}, {@code excluded-user-agents}, as its Reactor Netty and
 * Tomcat customizers apply them) and HTTP's for the rest: no body (1xx, 204, 304, HEAD), a body the application
 * encoded itself, a range response and a body sent by sendfile are never compressed, and the coding is negotiated
 * from {@code Accept-Encoding} by {@link AcceptEncoding}.
 * <p>
 * Thread-safe. Decisions are made once per configuration and shared, not allocated per response.
 */
public final class ResponseCompression {

	/** The body length to give {@link #decide} when it is not known yet (a stream). */
	public static final long UNKNOWN_LENGTH = -1;

	private final CompressionConfig config;

	private final CompressibleMimeTypes mimeTypes;

	private final ExcludedUserAgents userAgents;

	private final Map<Reason, CompressionDecision> uncompressed = new EnumMap<>(Reason.class);

	private final Map<ContentCoding, CompressionDecision> compressed = new EnumMap<>(ContentCoding.class);

	/**
	 * Build the rules of a configuration.
	 * @param config the configuration
	 */
	public ResponseCompression(CompressionConfig config) {
		if (config == null) {
			throw new IllegalArgumentException("config must not be null");
		}
		this.config = config;
		this.mimeTypes = new CompressibleMimeTypes(config.mimeTypes());
		this.userAgents = new ExcludedUserAgents(config.excludedUserAgents());
		for (Reason reason : Reason.values()) {
			if (reason != Reason.COMPRESSED) {
				this.uncompressed.put(reason, new CompressionDecision(reason, null, config));
			}
		}
		for (ContentCoding coding : config.codings()) {
			this.compressed.put(coding, new CompressionDecision(Reason.COMPRESSED, coding, config));
		}
	}

	/**
	 * The configuration these rules were built from.
	 * @return the configuration
	 */
	public CompressionConfig config() {
		return this.config;
	}

	/**
	 * Decide what becomes of a response, once its status and headers are final and before its head is written.
	 * @param requestHeaders the request's headers ({@code Accept-Encoding}, {@code User-Agent})
	 * @param head whether the request is a HEAD
	 * @param status the response status
	 * @param responseHeaders the response's headers
	 * @param bodyLength the body's length when known (a single buffer), else {@link #UNKNOWN_LENGTH}, in which case
	 * the response's {@code Content-Length}, if any, is taken
	 * @param fileRegion whether the body goes out as a file region (sendfile)
	 * @return the decision
	 */
	public CompressionDecision decide(HttpHeaders requestHeaders, boolean head, int status, HttpHeaders responseHeaders,
			long bodyLength, boolean fileRegion) {
		if (!this.config.enabled()) {
			return this.uncompressed.get(Reason.DISABLED);
		}
		if (status < 200 || status == 204) {
			return this.uncompressed.get(Reason.NO_CONTENT);
		}
		if (responseHeaders.contains(HttpHeaderNames.CONTENT_ENCODING)) {
			return this.uncompressed.get(Reason.ALREADY_ENCODED);
		}
		if (!this.mimeTypes.matches(responseHeaders.get(HttpHeaderNames.CONTENT_TYPE))) {
			return this.uncompressed.get(Reason.TYPE_NOT_COMPRESSED);
		}
		if (status == 304) {
			return this.uncompressed.get(Reason.NOT_MODIFIED);
		}
		long length = (bodyLength >= 0) ? bodyLength : contentLength(responseHeaders);
		// An empty body stays empty, whatever the threshold: its coding would only add a trailer (Netty skips it too).
		if (length == 0 || (length > 0 && length < this.config.minResponseSize())) {
			return this.uncompressed.get(Reason.TOO_SMALL);
		}
		if (head) {
			return this.uncompressed.get(Reason.HEAD);
		}
		if (status == 206 || responseHeaders.contains(HttpHeaderNames.CONTENT_RANGE)) {
			return this.uncompressed.get(Reason.RANGE);
		}
		if (fileRegion) {
			return this.uncompressed.get(Reason.FILE_REGION);
		}
		if (!this.userAgents.isEmpty() && this.userAgents.excludes(requestHeaders.getAll(HttpHeaderNames.USER_AGENT))) {
			return this.uncompressed.get(Reason.USER_AGENT_EXCLUDED);
		}
		List<String> acceptEncoding = requestHeaders.getAll(HttpHeaderNames.ACCEPT_ENCODING);
		ContentCoding coding = AcceptEncoding.negotiate(acceptEncoding, this.config.codings());
		if (coding == null) {
			return this.uncompressed.get(Reason.NOT_ACCEPTED);
		}
		return this.compressed.get(coding);
	}

	/**
	 * A new encoder of a coding at this configuration's level, for a body compressed without a per-response
	 * decision (a cached body stored once per coding).
	 * @param coding the coding
	 * @param allocator the allocator of the buffers it returns
	 * @return the encoder, to be finished or closed by the caller
	 */
	public ContentEncoder newEncoder(ContentCoding coding, ByteBufAllocator allocator) {
		return AbstractContentEncoder.create(coding, this.config, allocator);
	}

	/** A {@code Content-Length} that does not parse counts as unknown, as Reactor Netty reads it. */
	private static long contentLength(HttpHeaders headers) {
		String value = headers.get(HttpHeaderNames.CONTENT_LENGTH);
		if (value == null) {
			return UNKNOWN_LENGTH;
		}
		try {
			return Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			return UNKNOWN_LENGTH;
		}
	}

}
