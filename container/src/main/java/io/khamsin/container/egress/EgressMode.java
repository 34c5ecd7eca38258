package io.khamsin.container.egress;

/**
 * One way a response body can leave the server, whether the running server's connections can use it, and why.
 *
 * @param mode the mode: {@code sendfile}, {@code ktls} or {@code userspace}
 * @param available whether responses can use it
 * @param reason what it does, or why it is not available
 */
public record EgressMode(String mode, boolean available, String reason) {

}
