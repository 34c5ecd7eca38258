package io.khamsin.sample;

import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.khamsin.container.test.LeakDetectionExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Multipart forms through Spring's part reader ({@code POST /upload/parts}): a text field and a file of more than
 * a megabyte arrive whole and in order (on khamsin and, for comparison, Reactor Netty); clients that send half a form
 * and go away leave nothing behind (the leak detector runs at PARANOID) and the server serves on (khamsin).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MultipartUploadTests {

	private final MultipartUploads form = new MultipartUploads();

	@ParameterizedTest
	@EnumSource
	void aFormWithAFieldAndAFileArrivesWholeAndInOrder(Container container) throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient().send(
				HttpRequest.newBuilder(container.server().uri("/upload/parts"))
					.header("Content-Type", MultipartUploads.CONTENT_TYPE)
					.POST(HttpRequest.BodyPublishers.ofByteArray(this.form.body))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		this.form.assertAnswered(response.body());
	}

	// khamsin alone: on Reactor Netty the same clients made its own receive buffers leak in about one run of four
	// (AdaptiveByteBufAllocator buffers allocated and last touched by reactor.netty frames alone), which fails this
	// class whatever khamsin does; that defect is Reactor Netty's to fix, not a comparison this test can make.
	@ParameterizedTest
	@EnumSource(names = "KHAMSIN")
	void clientsThatLeaveMidFormLeakNothingAndTheServerServesOn(Container container) throws Exception {
		SampleServer server = container.server();
		int mark = LeakDetectionExtension.mark();
		for (int i = 0; i < 10; i++) {
			this.form.sendHalfAndLeave(new Socket("localhost", server.port()));
		}
		HttpResponse<String> next = HttpClient.newHttpClient().send(
				HttpRequest.newBuilder(server.uri("/upload/parts"))
					.header("Content-Type", MultipartUploads.CONTENT_TYPE)
					.POST(HttpRequest.BodyPublishers.ofByteArray(this.form.body))
					.build(),
				HttpResponse.BodyHandlers.ofString());
		this.form.assertAnswered(next.body());
		assertThat(LeakDetectionExtension.reportsSince(mark)).isEmpty();
	}

}
