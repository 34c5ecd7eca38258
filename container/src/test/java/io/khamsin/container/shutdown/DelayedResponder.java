package io.khamsin.container.shutdown;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;

/**
 * The handler of the shutdown drill: records the id of every request it reads ({@value #ID} header), then answers
 * after a random delay of 0 to 50 ms, so that requests are really in flight when a shutdown begins, with a body of
 * {@value #BODY_LENGTH} bytes that names the request, so that the client can tell a whole answer from a truncated one.
 */
final class DelayedResponder implements HttpHandler {

	static final String ID = "x-request-id";

	static final int BODY_LENGTH = 512;

	private static final int MAX_DELAY_MILLIS = 50;

	private final Set<Long> read = ConcurrentHashMap.newKeySet();

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		String id = request.getHeaders().getFirst(ID);
		if (id == null) {
			response.setStatusCode(HttpStatus.BAD_REQUEST);
			return response.setComplete();
		}
		this.read.add(Long.parseLong(id));
		long delay = ThreadLocalRandom.current().nextLong(MAX_DELAY_MILLIS + 1);
		return Mono.delay(Duration.ofMillis(delay)).then(Mono.defer(() -> {
			byte[] body = body(Long.parseLong(id));
			response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
			response.getHeaders().setContentLength(body.length);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
		}));
	}

	/** @return the ids of the requests the handler read */
	Set<Long> read() {
		return this.read;
	}

	/**
	 * The body that answers a request.
	 * @param id the request
	 * @return its body
	 */
	static byte[] body(long id) {
		byte[] body = new byte[BODY_LENGTH];
		Arrays.fill(body, (byte) '.');
		byte[] name = ("request " + id + "\n").getBytes(StandardCharsets.US_ASCII);
		System.arraycopy(name, 0, body, 0, name.length);
		body[BODY_LENGTH - 1] = '\n';
		return body;
	}

}
