package io.khamsin.benchmark.refserver;

import java.io.File;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import io.khamsin.benchmark.target.Payloads;

/**
 * The {@code vertx} target: a Vert.x 5 core HTTP server (no Vert.x Web) on the native epoll transport, with one
 * event loop per available processor, answering the scenario routes directly
 * ({@code POST /json} reads the order and answers its confirmation as fixed bytes). Usage:
 * {@code VertxServer <port> <files dir>}.
 */
public final class VertxServer {

	private static final Buffer HELLO = Buffer.buffer("Hello, World!");

	private static final Buffer CONFIRMATION = Buffer.buffer(Payloads.confirmation1k());

	private VertxServer() {
	}

	public static void main(String[] args) {
		int port = Integer.parseInt(args[0]);
		File files = new File(args[1]);
		int loops = Runtime.getRuntime().availableProcessors();
		Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true));
		vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true))
			.requestHandler((request) -> handle(request, files))
			.listen()
			.onSuccess((server) -> System.out.println("vertx listening on " + server.actualPort() + " (native "
					+ vertx.isNativeTransportEnabled() + ")"))
			.onFailure((cause) -> {
				cause.printStackTrace();
				System.exit(1);
			});
	}

	private static void handle(HttpServerRequest request, File files) {
		String path = request.path();
		if (path.equals("/plaintext") && request.method() == HttpMethod.GET) {
			request.response().putHeader("Content-Type", "text/plain").end(HELLO);
		}
		else if (path.equals("/json") && request.method() == HttpMethod.POST) {
			request.body()
				.onSuccess((body) -> request.response().putHeader("Content-Type", "application/json").end(CONFIRMATION));
		}
		else if (path.startsWith("/files/") && !path.contains("..") && request.method() == HttpMethod.GET) {
			File file = new File(files, path.substring("/files/".length()));
			if (file.isFile()) {
				request.response().putHeader("Content-Type", "application/octet-stream").sendFile(file.getPath());
			}
			else {
				request.response().setStatusCode(404).end();
			}
		}
		else {
			request.response().setStatusCode(404).end();
		}
	}

}
