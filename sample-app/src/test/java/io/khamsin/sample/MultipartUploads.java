package io.khamsin.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.khamsin.container.test.TestRoutes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A multipart form for {@code POST /upload/parts}, as a browser sends one: a text field and a file, and what the
 * sample answers for it; and a client that sends half of such a form and goes away.
 */
final class MultipartUploads {

	static final String BOUNDARY = "khamsin-form-7d1f";

	static final String CONTENT_TYPE = "multipart/form-data; boundary=" + BOUNDARY;

	/** The file part: 1 MiB and 17 bytes, more than one read buffer and one Spring part buffer. */
	final byte[] file = new byte[1024 * 1024 + 17];

	final byte[] note = "a note beside the file".getBytes(StandardCharsets.UTF_8);

	final byte[] body;

	MultipartUploads() {
		new Random(29).nextBytes(this.file);
		ByteArrayOutputStream form = new ByteArrayOutputStream();
		write(form, "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n");
		form.writeBytes(this.note);
		write(form, "\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"data\"; filename=\"data.bin\"\r\n"
				+ "Content-Type: application/octet-stream\r\n\r\n");
		form.writeBytes(this.file);
		write(form, "\r\n--" + BOUNDARY + "--\r\n");
		this.body = form.toByteArray();
	}

	/**
	 * Check the sample's answer to this form: each part in order, with its name, file name, size and SHA-256.
	 * @param answer the JSON answer
	 */
	void assertAnswered(String answer) {
		JsonNode parts = JsonMapper.builder().build().readTree(answer);
		assertThat(parts).as(answer).hasSize(2);
		assertPart(parts.get(0), "note", null, this.note);
		assertPart(parts.get(1), "data", "data.bin", this.file);
	}

	private static void assertPart(JsonNode part, String name, String filename, byte[] content) {
		assertThat(part.path("name").asString()).isEqualTo(name);
		assertThat(part.path("filename").isNull() ? null : part.path("filename").asString()).isEqualTo(filename);
		assertThat(part.path("receipt").path("bytes").asLong()).isEqualTo(content.length);
		assertThat(part.path("receipt").path("sha256").asString()).isEqualTo(TestRoutes.sha256Hex(content));
	}

	/**
	 * Send the head of the form and half of its body on a connection, then close it.
	 * @param socket a connected socket (plain or TLS), closed by this call
	 */
	void sendHalfAndLeave(Socket socket) throws IOException {
		try (socket) {
			OutputStream out = socket.getOutputStream();
			out.write(("POST /upload/parts HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + CONTENT_TYPE
					+ "\r\nContent-Length: " + this.body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.write(this.body, 0, this.body.length / 2);
			out.flush();
		}
	}

	private static void write(ByteArrayOutputStream out, String text) {
		out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
	}

}
