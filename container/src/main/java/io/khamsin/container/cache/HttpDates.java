package io.khamsin.container.cache;

import java.util.Date;

import io.netty.handler.codec.DateFormatter;
import io.netty.util.AsciiString;

/**
 * HTTP dates (RFC 9110, section 5.6.7): the current one for the {@code Date} of every hit, formatted once per
 * second and shared, and parsing of {@code Expires}, {@code Last-Modified} and {@code If-Modified-Since}.
 */
final class HttpDates {

	private static volatile Cached cached = new Cached(Long.MIN_VALUE, AsciiString.EMPTY_STRING);

	private HttpDates() {
	}

	/**
	 * The date of a second, to write in a response.
	 * @param millis the time
	 * @return the date
	 */
	static AsciiString format(long millis) {
		long second = Math.floorDiv(millis, 1000);
		Cached current = cached;
		if (current.second != second) {
			current = new Cached(second, AsciiString.cached(DateFormatter.format(new Date(second * 1000))));
			cached = current;
		}
		return current.value;
	}

	/**
	 * Parse a date in any of the three formats HTTP allows.
	 * @param value the date, or {@code null}
	 * @return its time in milliseconds, or {@code -1} when absent or invalid
	 */
	static long parse(CharSequence value) {
		if (value == null) {
			return -1;
		}
		Date date = DateFormatter.parseHttpDate(value);
		return (date != null) ? date.getTime() : -1;
	}

	private record Cached(long second, AsciiString value) {
	}

}
