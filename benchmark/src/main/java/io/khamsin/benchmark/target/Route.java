package io.khamsin.benchmark.target;

import java.nio.charset.StandardCharsets;

/**
 * A route that scenarios load, with the answer every target must give before it is measured.
 *
 * @param name a short name for reports
 * @param method the request method
 * @param path the request target
 * @param requestBody the request body (empty for none)
 * @param contentType the content type the answer must have (its media type, parameters ignored)
 * @param expected what the body must be
 */
public record Route(String name, String method, String path, byte[] requestBody, String contentType,
		Expected expected) {

	/** {@code GET /plaintext}: 200, text/plain, exactly "Hello, World!". */
	public static final Route PLAINTEXT = new Route("plaintext", "GET", "/plaintext", new byte[0], "text/plain",
			Expected.exactly("Hello, World!".getBytes(StandardCharsets.US_ASCII)));

	/** {@code POST /json}: a 1 KB order in; 200, application/json, JSON equal to its confirmation out. */
	public static final Route JSON = new Route("json", "POST", "/json", Payloads.order1k(), "application/json",
			Expected.json(Payloads.confirmation1k()));

	/** {@code GET /files/64k.bin}: 200, application/octet-stream, the file's bytes. */
	public static final Route FILE_64K = file(Payloads.FILE_64K, 64 * 1024);

	/** {@code GET /files/1m.bin}: 200, application/octet-stream, the file's bytes. */
	public static final Route FILE_1M = file(Payloads.FILE_1M, 1024 * 1024);

	/**
	 * {@code GET /page/1}: 200, text/html, the sample app's product page of about 50 KB (its render fingerprint
	 * differs per render, its length does not), answered by the page cache once rendered.
	 */
	public static final Route PAGE = new Route("page", "GET", "/page/1", new byte[0], "text/html",
			Expected.startingWith("<!DOCTYPE html>".getBytes(StandardCharsets.US_ASCII)));

	private static Route file(String name, int size) {
		return new Route(name, "GET", "/files/" + name, new byte[0], "application/octet-stream",
				Expected.exactly(Payloads.file(size)));
	}

	/**
	 * What a correct body is.
	 *
	 * @param bytes the exact body, or the JSON the body must equal
	 * @param json whether the body is compared as JSON (any formatting and member order) rather than as bytes
	 * @param prefix whether the body must only start with the bytes (a page whose content varies per render)
	 */
	public record Expected(byte[] bytes, boolean json, boolean prefix) {

		static Expected exactly(byte[] bytes) {
			return new Expected(bytes, false, false);
		}

		static Expected json(byte[] bytes) {
			return new Expected(bytes, true, false);
		}

		static Expected startingWith(byte[] bytes) {
			return new Expected(bytes, false, true);
		}

	}

}
