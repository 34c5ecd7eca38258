package io.khamsin.container.bridge;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * The {@code Content-Length} a response's head announced for a body that follows it in parts, against the body
 * bytes written since: a part that would run past it, or an end short of it, can not be sent as this response.
 * Made only for a streamed body framed by its length; a whole response is checked where it is written.
 */
final class BodyLength {

	private final long announced;

	private long written;

	private BodyLength(long announced) {
		this.announced = announced;
	}

	/**
	 * The length a head announces for the body after it.
	 * @param headers the head's headers, after the protocol completed them
	 * @return its length, or {@code null} when the body is framed otherwise (chunks, the end of the connection)
	 */
	static BodyLength announcedBy(HttpHeaders headers) {
		if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
			return null;
		}
		long announced = declared(headers);
		return (announced >= 0) ? new BodyLength(announced) : null;
	}

	/**
	 * @param headers a response's headers
	 * @return the {@code Content-Length} they hold, or -1 if none (or none that is a length)
	 */
	static long declared(HttpHeaders headers) {
		String value = headers.get(HttpHeaderNames.CONTENT_LENGTH);
		if (value == null) {
			return -1;
		}
		try {
			return Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/**
	 * A {@code 206} of several ranges ({@code multipart/byteranges}) is framed by chunks, not by a
	 * {@code Content-Length}: Spring's resource handling (7.0) leaves the whole resource's length on it, which the
	 * multipart body never has, so a client would wait for bytes that never come (as it does on Reactor Netty).
	 * @param status the response's status
	 * @param headers its headers, from which that length is dropped
	 */
	static void dropFromByteranges(int status, HttpHeaders headers) {
		String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
		if (status == 206 && type != null && type.regionMatches(true, 0, "multipart/byteranges", 0, 20)) {
			headers.remove(HttpHeaderNames.CONTENT_LENGTH);
		}
	}

	/** @return the length announced */
	long announced() {
		return this.announced;
	}

	/**
	 * Count bytes about to be written.
	 * @param bytes how many
	 * @return whether they still fit the length announced
	 */
	boolean add(long bytes) {
		this.written += bytes;
		return this.written <= this.announced;
	}

	/** @return a description of how the body falls short of its length, or {@code null} when it is whole */
	String shortfall() {
		if (this.written >= this.announced) {
			return null;
		}
		return "its body ended after " + this.written + " of the " + this.announced
				+ " bytes its Content-Length announced";
	}

}
