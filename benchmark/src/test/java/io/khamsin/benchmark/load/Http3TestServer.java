package io.khamsin.benchmark.load;

import java.nio.charset.StandardCharsets;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.tls.TlsConfig;

/**
 * A real HTTP/3 server for the HTTP/3 generators' tests: khamsin on one reactor with HTTP/3 on, answering
 * {@code /plaintext} with "Hello, World!" and every other path 404.
 */
final class Http3TestServer {

	private Http3TestServer() {
	}

	static KhamsinServer start(TestCertificates certificates) throws Exception {
		return start(certificates, Http3Config.DEFAULT_MAX_BIDIRECTIONAL_STREAMS);
	}

	/** As {@link #start(TestCertificates)}, granting each connection {@code streams} request streams at a time. */
	static KhamsinServer start(TestCertificates certificates, int streams) throws Exception {
		HttpHandler handler = (request, response) -> {
			if (!request.getPath().value().equals("/plaintext")) {
				response.setStatusCode(HttpStatus.NOT_FOUND);
				return response.setComplete();
			}
			DataBuffer body = response.bufferFactory().wrap("Hello, World!".getBytes(StandardCharsets.US_ASCII));
			return response.writeWith(Mono.just(body));
		};
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.tls(TlsConfig.builder(certificates.server("localhost", "127.0.0.1").material("test")).build())
			.http3(Http3Config.builder().enabled(true).maxBidirectionalStreams(streams).build())
			.build(), handler);
		server.start();
		return server;
	}

}
