package io.khamsin.container.http2.conformance;

import java.util.Set;

/**
 * A server the catalogue runs against. It is started once for the whole run and must answer, on any authority:
 * <ul>
 * <li>{@code GET /} and {@code HEAD /}: 200, with a body of at least 16 bytes for GET (the flow-control cases read
 * it a byte at a time);</li>
 * <li>{@code POST /}: 200 with the request's body echoed, once the request has ended (trailers allowed).</li>
 * </ul>
 * It advertises a {@code SETTINGS_MAX_CONCURRENT_STREAMS} and a {@code SETTINGS_MAX_HEADER_LIST_SIZE}, so that
 * the cases on those limits have something to exceed. Cases that need more than RFC 9113 asks of every server say so
 * with {@link Requires}, and run only against targets whose {@link #capabilities()} hold what they need.
 */
interface ConformanceTarget extends AutoCloseable {

	/** @return a short name for the test output, such as {@code netty-reference} */
	String name();

	/** @return what the target handles beyond the cases every target runs */
	Set<Capability> capabilities();

	/**
	 * @return whether the catalogue runs against this target when {@code khamsin.h2.conformance.targets} does not
	 * name the targets to run
	 */
	default boolean runsByDefault() {
		return true;
	}

	/**
	 * Start the server.
	 * @return where it listens
	 * @throws Exception when it cannot start
	 */
	Endpoint start() throws Exception;

	@Override
	void close();

}
