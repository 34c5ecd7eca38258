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
 * connection (timeouts, the size of a head) belong to its protocol.
 */
final class RequestGuards {

	private static final Logger logger = LoggerFactory.getLogger(RequestGuards.class);

	private RequestGuards() {
	}

	/**
	 * Whether a request expects what the server can not meet (RFC 9110, section 10.1.1: {@code 100-continue} is
	 * the only expectation defined).
	 */
	static boolean isUnsupportedExpectation(HttpRequest request) {
		String expect = request.headers().get(HttpHeaderNames.EXPECT);
		return expect != null && !HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect.trim());
	}

	/** @return 417, counted and logged as every other refusal is */
	static HttpResponseStatus refuseExpectation(HttpRequest request, GuardCounters guards) {
		guards.increment(Guard.BAD_REQUEST);
		logger.debug("Rejecting request expecting '{}': only 100-continue is supported: 417",
				request.headers().get(HttpHeaderNames.EXPECT));
		return HttpResponseStatus.EXPECTATION_FAILED;
	}

	/** @return 413 for a body whose announced length is larger than the limit */
	static HttpResponseStatus refuseAnnouncedBody(long contentLength, long maxBody, GuardCounters guards) {
		guards.increment(Guard.MAX_REQUEST_BODY_SIZE);
		logger.debug("Request body of {} bytes exceeds khamsin.max-request-body-size ({} bytes): 413", contentLength,
				maxBody);
		return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
	}

	/** @return 413 for a body that grew past the limit as it arrived */
	static HttpResponseStatus refuseBody(long maxBody, GuardCounters guards) {
		guards.increment(Guard.MAX_REQUEST_BODY_SIZE);
		logger.debug("Request body exceeds khamsin.max-request-body-size ({} bytes): 413", maxBody);
		return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
	}

	/** @return 400 for a request target that could not be parsed, or a server-wide target of another method */
	static HttpResponseStatus refuseTarget(HttpRequest request, String why, GuardCounters guards) {
		guards.increment(Guard.BAD_REQUEST);
		logger.debug("Rejecting request target '{}': {}", request.uri(), why);
		return HttpResponseStatus.BAD_REQUEST;
	}

}
