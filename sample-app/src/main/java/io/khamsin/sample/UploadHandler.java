package io.khamsin.sample;

import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code POST /upload}: streams a body of any size and length framing (fixed or chunked) and answers its byte
 * count and SHA-256, holding one buffer at a time. {@code POST /upload/parts}: reads a multipart form through
 * Spring's part reader and answers, for each part in order, its name, file name, byte count and SHA-256.
 */
final class UploadHandler {

	Mono<ServerResponse> digest(ServerRequest request) {
		return request.body(BodyExtractors.toDataBuffers())
			.reduceWith(UploadDigest::new, UploadHandler::consume)
			.switchIfEmpty(Mono.fromSupplier(UploadDigest::new))
			.map(UploadDigest::receipt)
			.flatMap((receipt) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(receipt));
	}

	Mono<ServerResponse> parts(ServerRequest request) {
		return request.body(BodyExtractors.toParts())
			.concatMap(UploadHandler::digest)
			.collectList()
			.flatMap((parts) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(parts));
	}

	private static Mono<PartReceipt> digest(Part part) {
		String filename = (part instanceof FilePart file) ? file.filename() : null;
		return part.content()
			.reduceWith(UploadDigest::new, UploadHandler::consume)
			.switchIfEmpty(Mono.fromSupplier(UploadDigest::new))
			.map((digest) -> new PartReceipt(part.name(), filename, digest.receipt()));
	}

	static UploadDigest consume(UploadDigest digest, DataBuffer buffer) {
		try {
			return digest.update(buffer);
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	/**
	 * What {@code POST /upload/parts} answers for one part.
	 *
	 * @param name the part's name
	 * @param filename the file name of a file part, or {@code null}
	 * @param receipt its byte count and SHA-256
	 */
	record PartReceipt(String name, String filename, UploadDigest.Receipt receipt) {
	}

}
