package io.khamsin.container.http1.smuggling;

import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http2.Http2Config;

/**
 * Every case of the smuggling corpus sent straight to khamsin, over HTTP/1.1 on a plain socket (then a marker request
 * on the same connection) or HTTP/2 with prior knowledge: each gets a refusal and a closed connection, or exactly the
 * one parse the corpus expects, and no request hidden in it ever reaches the application.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class DirectSmugglingTests {

	private final EchoApplication application = new EchoApplication();

	private KhamsinServer server;

	@BeforeAll
	void start() {
		this.server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.http2(Http2Config.builder().enabled(true).build())
			.build(), this.application);
		this.server.start();
	}

	@AfterAll
	void stop() {
		this.server.stop();
	}

	@TestFactory
	Stream<DynamicTest> eachCaseIsRefusedOrParsedOnceAsExpected() {
		return SmugglingCorpus.cases().stream().map((testCase) -> DynamicTest.dynamicTest(
				testCase.id() + ": " + testCase.description(), () -> {
					Probe.Result result = Probe.send(this.server.port(), testCase, "direct", 10_000);
					Verdicts.assertDirect(testCase, result, this.application, "direct");
				}));
	}

}
