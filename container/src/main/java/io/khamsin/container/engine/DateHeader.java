package io.khamsin.container.engine;

import java.util.Date;

import io.netty.handler.codec.DateFormatter;
import io.netty.util.AsciiString;

/**
 * The value of the {@code Date} response header (RFC 9110, section 6.6.1), formatted once per second and shared
 * by every connection of every protocol.
 */
public final class DateHeader {

	private static volatile Cached cached = new Cached(0, AsciiString.EMPTY_STRING);

	private DateHeader() {
	}

	/**
	 * The current date, to the second.
	 * @return the header value
	 */
	public static AsciiString now() {
		long millis = System.currentTimeMillis();
		long second = millis / 1000;
		Cached current = cached;
		if (current.second != second) {
			current = new Cached(second, AsciiString.cached(DateFormatter.format(new Date(second * 1000))));
			cached = current;
		}
		return current.value;
	}

	private record Cached(long second, AsciiString value) {
	}

}
