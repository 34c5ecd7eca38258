package io.khamsin.container.bridge;

import io.netty.handler.codec.http.HttpHeaders;
import reactor.core.scheduler.Schedulers;

import io.khamsin.container.compression.CompressionConfig;
import io.khamsin.container.compression.CompressionDecision;
import io.khamsin.container.compression.ResponseCompression;
import io.khamsin.container.compression.WholeBodyCompression;

/**
 * The response compression of one server, as its responses use it: the rules that decide per response, and where
 * a large single-buffer body is compressed (Reactor's parallel scheduler, which is for CPU-bound work, so that the
 * reactor goes on serving its other connections). Made once per server, and only when compression is on: a server
 * that does not compress checks one reference per response.
 */
public final class BodyCompression {

	private final ResponseCompression rules;

	private final WholeBodyCompression whole;

	private BodyCompression(CompressionConfig config) {
		this.rules = new ResponseCompression(config);
		this.whole = new WholeBodyCompression(config.offloadThreshold(), (task) -> Schedulers.parallel().schedule(task));
	}

	/**
	 * The compression of a server.
	 * @param config its configuration
	 * @return the compression, or {@code null} when it is off
	 */
	public static BodyCompression of(CompressionConfig config) {
		return config.enabled() ? new BodyCompression(config) : null;
	}

	/**
	 * Decide what becomes of a response (see {@link ResponseCompression#decide}).
	 */
	CompressionDecision decide(HttpHeaders requestHeaders, boolean head, int status, HttpHeaders responseHeaders,
			long bodyLength, boolean fileRegion) {
		return this.rules.decide(requestHeaders, head, status, responseHeaders, bodyLength, fileRegion);
	}

	WholeBodyCompression whole() {
		return this.whole;
	}

}
