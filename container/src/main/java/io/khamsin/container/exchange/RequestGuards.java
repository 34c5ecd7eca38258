package io.khamsin.container.exchange;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;

/**
 * The guards of a request that hold for every protocol, each counted as its {@link Guard} and logged when it
 * refuses: an expectation the server can not meet (417), a body larger than {@code khamsin.max-request-body-size}
 * as announced (413) or as it arrives (413), and a target the application can not be given (400). The guards of a
 * connection (timeouts, the size of a head) belong to its protocol. One per server.
 */
final class RequestGuards {

	private static final Logger logger = LoggerFactory.getLogger(RequestGuards.class);

	private final GuardCounters guards;

	private final long maxBodySize;

	/**
	 * @param guards where refusals are counted
	 * @param maxBodySize the largest request body accepted, or {@code -1} for no limit
	 */
	RequestGuards(GuardCounters guards, long maxBodySize) {
		this.guards = guards;
		this.maxBodySize = maxBodySize;
	}

	/**
	 * What a request head must be refused with before anything else happens to it: an expectation other than
	 * {@code 100-continue} (RFC 9110, section 10.1.1), or a body announced larger than the limit.
	 * @param request the head
	 * @param bodyLength the length its head announces for its body, {@code -1} when not announced
	 * @return the status to refuse it with, counted and logged, or {@code null} when it may go on
	 */
	HttpResponseStatus refusal(HttpRequest request, long bodyLength) {
		String expect = request.headers().get(HttpHeaderNames.EXPECT);
		if (expect != null && !HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect.trim())) {
			this.guards.increment(Guard.BAD_REQUEST);
			logger.debug("Rejecting request expecting '{}': only 100-continue is supported: 417", expect);
			return HttpResponseStatus.EXPECTATION_FAILED;
		}
		if (this.maxBodySize >= 0 && bodyLength > this.maxBodySize) {
			this.guards.increment(Guard.MAX_REQUEST_BODY_SIZE);
			logger.debug("Request body of {} bytes exceeds khamsin.max-request-body-size ({} bytes): 413", bodyLength,
					this.maxBodySize);
			return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
		}
		return null;
	}

	/**
	 * Whether a body is still within the limit as it arrives.
	 * @param received the bytes of the body received so far
	 * @return {@code null} if it is, else 413, counted and logged
	 */
	HttpResponseStatus checkBody(long received) {
		if (this.maxBodySize < 0 || received <= this.maxBodySize) {
			return null;
		}
		this.guards.increment(Guard.MAX_REQUEST_BODY_SIZE);
		logger.debug("Request body exceeds khamsin.max-request-body-size ({} bytes): 413", this.maxBodySize);
		return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
	}

	/**
	 * Refuse a request target that could not be parsed, or a server-wide target of another method than OPTIONS.
	 * @param request the head
	 * @param why what is wrong with it
	 * @return 400, counted and logged
	 */
	HttpResponseStatus refuseTarget(HttpRequest request, String why) {
		this.guards.increment(Guard.BAD_REQUEST);
		logger.debug("Rejecting request target '{}': {}", request.uri(), why);
		return HttpResponseStatus.BAD_REQUEST;
	}

}
