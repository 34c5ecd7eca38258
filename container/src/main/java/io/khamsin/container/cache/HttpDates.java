package io.khamsin.container.cache;

import java.util.Date;

import io.netty.handler.codec.DateFormatter;

/**
 * Parsing of the HTTP dates (RFC 9110, section 5.6.7) the cache reads: {@code Date}, {@code Expires},
 * {@code Last-Modified} and {@code If-Modified-Since}. The {@code Date} a hit is written with is the protocol's to
 * add.
 */
final class HttpDates {

	private HttpDates() {
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

}
