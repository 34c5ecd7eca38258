package io.khamsin.benchmark.target;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The bodies the scenarios send and serve, generated the same way on every run: a 1 KB JSON order and its
 * confirmation, and static files of fixed pseudo-random bytes.
 */
public final class Payloads {

	/** The 64 KiB download. */
	public static final String FILE_64K = "64k.bin";

	/** The 1 MiB download. */
	public static final String FILE_1M = "1m.bin";

	private Payloads() {
	}

	/**
	 * @return the order that {@code POST /json} reads: a compact JSON object of exactly 1,024 bytes, in the shape
	 * of the sample app's {@code Order}
	 */
	public static byte[] order1k() {
		String head = "{\"id\":\"ord-4711\",\"customer\":" + CUSTOMER + ",\"items\":[" + String.join(",", items()) + "],"
				+ "\"shippingAddress\":" + ADDRESS + ",\"currency\":\"EUR\",\"notes\":\"";
		String tail = "\"}";
		int pad = 1024 - head.length() - tail.length();
		if (pad < 0) {
			throw new IllegalStateException("the order is longer than 1 KB without notes");
		}
		return (head + notes(pad) + tail).getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * @return the confirmation that {@code POST /json} answers to {@link #order1k()} (the sample app's
	 * {@code OrderConfirmation}: priced lines, subtotal, 20% tax, total), which the reference targets send as is
	 */
	public static byte[] confirmation1k() {
		StringBuilder lines = new StringBuilder();
		BigDecimal subtotal = BigDecimal.ZERO;
		for (int i = 0; i < ITEMS; i++) {
			BigDecimal price = price(i);
			BigDecimal lineTotal = price.multiply(BigDecimal.valueOf(i + 1));
			subtotal = subtotal.add(lineTotal);
			lines.append((i > 0) ? "," : "").append("{\"sku\":\"KH-").append(1000 + i).append("\",\"name\":\"item ")
				.append(i).append("\",\"quantity\":").append(i + 1).append(",\"unitPrice\":").append(price)
				.append(",\"lineTotal\":").append(lineTotal).append('}');
		}
		BigDecimal tax = subtotal.multiply(new BigDecimal("0.20")).setScale(2, RoundingMode.HALF_EVEN);
		String order = new String(order1k(), StandardCharsets.US_ASCII);
		String notes = order.substring(order.indexOf("\"notes\":\"") + 9, order.length() - 2);
		return ("{\"orderId\":\"ord-4711\",\"status\":\"ACCEPTED\",\"customer\":" + CUSTOMER + ",\"lines\":[" + lines
				+ "],\"subtotal\":" + subtotal + ",\"tax\":" + tax + ",\"total\":" + subtotal.add(tax)
				+ ",\"currency\":\"EUR\",\"shippingAddress\":" + ADDRESS + ",\"notes\":\"" + notes + "\"}")
			.getBytes(StandardCharsets.US_ASCII);
	}

	private static final int ITEMS = 6;

	private static final String CUSTOMER = "{\"id\":\"c-42\",\"name\":\"Ada Lovelace\",\"email\":\"ada@example.org\"}";

	private static final String ADDRESS = "{\"street\":\"12 Analytical Row\",\"city\":\"London\",\"postalCode\":\"N1 9GU\","
			+ "\"country\":\"GB\"}";

	private static List<String> items() {
		List<String> items = new ArrayList<>();
		for (int i = 0; i < ITEMS; i++) {
			items.add("{\"sku\":\"KH-" + (1000 + i) + "\",\"name\":\"item " + i + "\",\"quantity\":" + (i + 1)
					+ ",\"unitPrice\":" + price(i) + "}");
		}
		return items;
	}

	private static BigDecimal price(int i) {
		return new BigDecimal((10 + 3 * i) + ".50");
	}

	private static String notes(int length) {
		String words = "please leave the parcel with the neighbour if nobody answers the door ";
		return words.repeat(length / words.length() + 1).substring(0, length);
	}

	/** @return {@code size} pseudo-random bytes, the same on every call */
	public static byte[] file(int size) {
		byte[] bytes = new byte[size];
		new Random(size).nextBytes(bytes);
		return bytes;
	}

	/**
	 * Write the download files into {@code dir}, readable by everyone (nginx's worker is not root).
	 * @return {@code dir}
	 */
	public static Path writeFiles(Path dir) {
		try {
			Files.createDirectories(dir);
			Files.write(dir.resolve(FILE_64K), file(64 * 1024));
			Files.write(dir.resolve(FILE_1M), file(1024 * 1024));
			dir.toFile().setReadable(true, false);
			dir.toFile().setExecutable(true, false);
			dir.resolve(FILE_64K).toFile().setReadable(true, false);
			dir.resolve(FILE_1M).toFile().setReadable(true, false);
			return dir;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot write the download files into " + dir, ex);
		}
	}

}
