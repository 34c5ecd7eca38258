package io.khamsin.benchmark.soak;

import java.net.InetSocketAddress;
import java.time.Duration;

import io.khamsin.benchmark.load.H3Load;

/**
 * HTTP/3 through the benchmark's QUIC client ({@link H3Load#paced}): a few connections, each with one request in
 * flight and a pause after every answer, on a new QUIC connection per request or not. A request with no answer, an
 * answer other than 2xx or a body of another length is an error.
 */
final class H3Workload implements Workload {

	private final String name;

	private final String description;

	private final InetSocketAddress address;

	private final String path;

	private final int connections;

	private final H3Load.Pacing pacing;

	H3Workload(String name, String description, InetSocketAddress address, String path, int connections,
			H3Load.Pacing pacing) {
		this.name = name;
		this.description = description;
		this.address = address;
		this.path = path;
		this.connections = connections;
		this.pacing = pacing;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String description() {
		return this.description;
	}

	@Override
	public Outcome run(Duration duration) throws Exception {
		H3Load.Result result = H3Load.paced(this.address, this.path, this.connections, this.pacing, duration);
		long errors = result.failed() + result.non2xx();
		return new Outcome(result.succeeded(), errors, result.errors().isEmpty() ? null : result.errors());
	}

}
