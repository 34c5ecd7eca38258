package io.khamsin.container.exchange;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http2.Http2Config;

/**
 * Started in a JVM of its own by {@link FaultTests}, with a small {@code -XX:MaxDirectMemorySize}: a server whose
 * handler takes direct memory on demand. {@code /hold?mb=N} takes N MiB and keeps them, {@code /release} gives back
 * what was kept, {@code /large?mb=N} answers a body of N MiB, anything else answers "ok". Prints the port, serves
 * until its standard input ends.
 */
final class DirectMemoryProbe {

	private static final int MIB = 1024 * 1024;

	private DirectMemoryProbe() {
	}

	public static void main(String[] args) throws IOException {
		((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.INFO);
		List<DataBuffer> held = new ArrayList<>();
		HttpHandler handler = (request, response) -> {
			String path = request.getPath().value();
			String mb = request.getQueryParams().getFirst("mb");
			DataBuffer body;
			if (path.equals("/hold")) {
				DataBuffer buffer = response.bufferFactory().allocateBuffer(Integer.parseInt(mb) * MIB);
				synchronized (held) {
					held.add(buffer);
				}
				body = response.bufferFactory().wrap("held".getBytes(StandardCharsets.US_ASCII));
			}
			else if (path.equals("/release")) {
				synchronized (held) {
					held.forEach(DataBufferUtils::release);
					held.clear();
				}
				body = response.bufferFactory().wrap("released".getBytes(StandardCharsets.US_ASCII));
			}
			else if (path.equals("/large")) {
				int size = Integer.parseInt(mb) * MIB;
				body = response.bufferFactory().allocateBuffer(size);
				body.writePosition(size);
			}
			else {
				body = response.bufferFactory().wrap("ok".getBytes(StandardCharsets.US_ASCII));
			}
			return response.writeWith(Mono.just(body));
		};
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(2)
			.http2(Http2Config.builder().enabled(true).build())
			.build(), handler);
		server.start();
		System.out.println("port=" + server.port());
		System.out.flush();
		while (System.in.read() != -1) {
			// serve until the test closes our standard input
		}
		server.stop();
	}

}
