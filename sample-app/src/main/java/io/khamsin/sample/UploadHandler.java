package io.khamsin.sample;

import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code POST /upload}: streams a body of any size and length framing (fixed or chunked) and answers its byte
 * count and SHA-256, holding one buffer at a time.
 */
final class UploadHandler {

	Mono<ServerResponse> digest(ServerRequest request) {
		return request.body(BodyExtractors.toDataBuffers())
			.reduceWith(UploadDigest::new, UploadHandler::consume)
			.switchIfEmpty(Mono.fromSupplier(UploadDigest::new))
			.map(UploadDigest::receipt)
			.flatMap((receipt) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(receipt));
	}

	static UploadDigest consume(UploadDigest digest, DataBuffer buffer) {
		try {
			return digest.update(buffer);
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

}
