package io.khamsin.container.http1.smuggling;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;

import io.khamsin.container.test.TestRoutes;

/**
 * The application behind the smuggling tests: it reads every request's body and answers with what it parsed,
 * {@code <method> <path> <body length> <body SHA-256>}, so that a client can tell which request a response belongs
 * to; and it keeps, as {@code <method> <path>} in order, the requests that reached it and those whose whole body it
 * read, and the client port of the connection each path came on.
 */
final class EchoApplication implements HttpHandler {

	private final List<String> arrived = new CopyOnWriteArrayList<>();

	private final List<String> read = new CopyOnWriteArrayList<>();

	private final AtomicLong counter = new AtomicLong();

	private final Map<String, Integer> clientPorts = new ConcurrentHashMap<>();

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		String target = request.getMethod().name() + " " + request.getURI().getRawPath();
		this.arrived.add(target);
		if (request.getRemoteAddress() != null) {
			this.clientPorts.put(request.getURI().getRawPath(), request.getRemoteAddress().getPort());
		}
		MessageDigest sha = TestRoutes.sha256();
		long[] length = new long[1];
		return request.getBody().doOnNext((buffer) -> {
			length[0] += buffer.readableByteCount();
			try (DataBuffer.ByteBufferIterator it = buffer.readableByteBuffers()) {
				it.forEachRemaining(sha::update);
			}
			DataBufferUtils.release(buffer);
		}).then(Mono.defer(() -> {
			this.read.add(target);
			String echo = echo(target, length[0], sha.digest());
			response.getHeaders().set("X-Request-Number", Long.toString(this.counter.incrementAndGet()));
			byte[] bytes = echo.getBytes(StandardCharsets.UTF_8);
			response.getHeaders().setContentLength(bytes.length);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
		}));
	}

	/** @return the answer to a request with this method and path, and this body */
	static String echo(String method, String path, String body) {
		return echo(method + " " + path, body.length(),
				TestRoutes.sha256().digest(body.getBytes(StandardCharsets.ISO_8859_1)));
	}

	private static String echo(String target, long length, byte[] digest) {
		return target + " " + length + " " + HexFormat.of().formatHex(digest);
	}

	/** @return the requests whose path starts with {@code prefix} that reached the application */
	List<String> arrived(String prefix) {
		return withPath(this.arrived, prefix);
	}

	/** @return the requests whose path starts with {@code prefix} whose whole body the application read */
	List<String> read(String prefix) {
		return withPath(this.read, prefix);
	}

	/** @return the client port of the connection the last request for this path came on, or -1 */
	int clientPort(String path) {
		return this.clientPorts.getOrDefault(path, -1);
	}

	private static List<String> withPath(List<String> targets, String prefix) {
		return targets.stream().filter((target) -> target.split(" ", 2)[1].startsWith(prefix)).toList();
	}

}
