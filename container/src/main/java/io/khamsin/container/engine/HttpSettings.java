package io.khamsin.container.engine;

import java.time.Duration;

/**
 * What every HTTP protocol of a server applies alike: the limits and deadlines of a connection's requests and the
 * {@code Server} header. The slice of the server's configuration that the protocols read, through the
 * {@link ServerContext}, so that none of them depends on the configuration as a whole.
 *
 * @param maxInitialLineLength the longest request line accepted (longer: 414)
 * @param maxHeaderSize the largest request head accepted, in bytes (larger: 431)
 * @param idleTimeout how long a keep-alive connection may stay idle between requests
 * @param headerReadTimeout how long a client may take to send a request head (slower: 408)
 * @param bodyReadTimeout how long a request body may stall while the handler waits for it (slower: 408)
 * @param maxRequestBodySize the largest request body accepted in bytes (larger: 413), or {@code -1} for no limit
 * @param serverHeader the value of the {@code Server} response header, or {@code null} for none
 */
public record HttpSettings(int maxInitialLineLength, int maxHeaderSize, Duration idleTimeout,
		Duration headerReadTimeout, Duration bodyReadTimeout, long maxRequestBodySize, String serverHeader) {

}
