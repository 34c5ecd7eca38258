package io.khamsin.container.http2;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.HttpConversionUtil;

import io.khamsin.container.engine.HttpSettings;

/**
 * The first request of a plain connection, when it asks to continue in HTTP/2 ({@code Upgrade: h2c}, RFC 7540,
 * section 3.2) and may: a whole head in the connection's first read, within {@code khamsin.max-initial-line-length}
 * and {@code max-header-size}, {@code HTTP/1.1}, no body, {@code Connection: Upgrade, HTTP2-Settings} and exactly one
 * well-formed {@code HTTP2-Settings}. Anything else is served as HTTP/1.1 (a server may ignore an upgrade), whose
 * parser then has the last word on the head.
 * <p>
 * Looking for one costs a plain connection a scan of its first head for {@code h2c}; only a head that has it is
 * parsed here.
 *
 * @param request the request, with no body
 * @param settings the client's settings
 * @param headLength the length of the head in the connection's first bytes
 */
record H2cUpgradeRequest(FullHttpRequest request, Http2Settings settings, int headLength) {

	private static final String HTTP2_SETTINGS = "HTTP2-Settings";

	private static final int SETTING_LENGTH = 6;

	/**
	 * The upgrade a connection's first bytes ask for, if they do and may have it.
	 * @param in the bytes, not consumed
	 * @param config the server's limits on a request head
	 * @return the upgrade, or {@code null} to serve the bytes as HTTP/1.1
	 */
	static H2cUpgradeRequest read(ByteBuf in, HttpSettings config) {
		int start = in.readerIndex();
		int limit = Math.min(in.writerIndex(), start + config.maxInitialLineLength() + config.maxHeaderSize());
		int end = -1;
		boolean h2c = false;
		for (int at = start; at + 3 < limit; at++) {
			byte b = in.getByte(at);
			if (b == '\r' && in.getByte(at + 1) == '\n' && in.getByte(at + 2) == '\r' && in.getByte(at + 3) == '\n') {
				end = at + 4;
				break;
			}
			if ((b | 0x20) == 'h' && in.getByte(at + 1) == '2' && (in.getByte(at + 2) | 0x20) == 'c') {
				h2c = true;
			}
		}
		if (end < 0 || !h2c) {
			return null;
		}
		return parse(in.toString(start, end - start, StandardCharsets.ISO_8859_1), end - start, config);
	}

	private static H2cUpgradeRequest parse(String head, int headLength, HttpSettings config) {
		String[] lines = head.split("\r\n");
		String[] requestLine = lines[0].split(" ", -1);
		if (lines[0].length() > config.maxInitialLineLength() || requestLine.length != 3
				|| !"HTTP/1.1".equals(requestLine[2]) || requestLine[0].isEmpty() || requestLine[1].isEmpty()
				|| "CONNECT".equals(requestLine[0])) {
			return null;
		}
		try {
			HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().withValueValidation(true).newHeaders();
			for (int i = 1; i < lines.length; i++) {
				String line = lines[i];
				int colon = line.indexOf(':');
				if (colon <= 0 || line.charAt(0) == ' ' || line.charAt(0) == '\t'
						|| Character.isWhitespace(line.charAt(colon - 1))) {
					// An obsolete line folding, or whitespace before the colon: HTTP/1.1 answers it.
					return null;
				}
				headers.add(line.substring(0, colon), line.substring(colon + 1).strip());
			}
			Http2Settings settings = asksForUpgrade(headers) ? settings(headers.getAll(HTTP2_SETTINGS)) : null;
			if (settings == null) {
				return null;
			}
			FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
					HttpMethod.valueOf(requestLine[0]), requestLine[1], Unpooled.EMPTY_BUFFER, headers,
					DefaultHttpHeadersFactory.trailersFactory().newEmptyHeaders());
			// The request must make a valid HTTP/2 header block before the 101 promises one.
			headers.set(HttpConversionUtil.ExtensionHeaderNames.SCHEME.text(), "http");
			HttpConversionUtil.toHttp2Headers(request, true);
			return new H2cUpgradeRequest(request, settings, headLength);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static boolean asksForUpgrade(HttpHeaders headers) {
		List<String> connection = tokens(headers.getAll(HttpHeaderNames.CONNECTION));
		String contentLength = headers.get(HttpHeaderNames.CONTENT_LENGTH);
		return tokens(headers.getAll(HttpHeaderNames.UPGRADE)).contains(Http2Initializer.CLEARTEXT)
				&& connection.contains("upgrade") && connection.contains("http2-settings")
				&& headers.contains(HttpHeaderNames.HOST) && !headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
				&& (contentLength == null || "0".equals(contentLength.strip()));
	}

	private static List<String> tokens(List<String> values) {
		return values.stream()
			.flatMap((value) -> List.of(value.split(",")).stream())
			.map((token) -> token.strip().toLowerCase(Locale.ROOT))
			.toList();
	}

	private static Http2Settings settings(List<String> values) {
		if (values.size() != 1) {
			// RFC 7540, section 3.2.1: exactly one.
			return null;
		}
		byte[] payload = Base64.getUrlDecoder().decode(values.get(0).strip());
		if (payload.length % SETTING_LENGTH != 0) {
			return null;
		}
		Http2Settings settings = new Http2Settings();
		ByteBuf bytes = Unpooled.wrappedBuffer(payload);
		while (bytes.isReadable()) {
			char id = (char) bytes.readUnsignedShort();
			settings.put(id, Long.valueOf(bytes.readUnsignedInt()));
		}
		return settings;
	}

}
