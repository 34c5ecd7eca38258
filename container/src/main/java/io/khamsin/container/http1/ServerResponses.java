package io.khamsin.container.http1;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;

/**
 * The responses khamsin writes itself on an HTTP/1.1 connection, without the application: the errors that refuse
 * a request (400, 413, 414, 417, 431, and the 408 of a timeout), the answer to {@code OPTIONS *}, and
 * {@code 100 Continue}. A refusal is counted as its {@link Guard}. The configured answers to fixed paths are
 * {@link FixedResponses}.
 */
final class ServerResponses {

	// The category of the connection's handler: the one to turn on to follow what happens to a connection.
	private static final Logger logger = LoggerFactory.getLogger(Http1ServerHandler.class);

	private static final DefaultHttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory();

	private static final String ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

	private ServerResponses() {
	}

	/**
	 * The error that refuses a request head the decoder could not read.
	 * @param cause why it could not
	 * @param guards the counters of the guard that tripped
	 * @return 414 for a request line too long, 431 for headers too large, 400 for the rest
	 */
	static HttpResponseStatus refuseMalformed(Throwable cause, GuardCounters guards) {
		HttpResponseStatus status;
		Guard guard;
		if (cause instanceof TooLongHttpLineException) {
			status = HttpResponseStatus.REQUEST_URI_TOO_LONG;
			guard = Guard.MAX_INITIAL_LINE_LENGTH;
		}
		else if (cause instanceof TooLongHttpHeaderException) {
			status = HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
			guard = Guard.MAX_HEADER_SIZE;
		}
		else {
			status = (cause instanceof TooLongFrameException) ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
					: HttpResponseStatus.BAD_REQUEST;
			guard = Guard.BAD_REQUEST;
		}
		guards.increment(guard);
		logger.debug("Rejecting malformed request with {}: {}", status.code(), cause.getMessage());
		return status;
	}

	/**
	 * The error that refuses a request in a major version of HTTP other than 1 on this HTTP/1.x connection (RFC
	 * 9110, section 15.6.6): {@code HTTP/2.0} in a request line is not HTTP/2, whose connections start with a
	 * preface, and is not served as HTTP/1.1 either.
	 * @param request the request head
	 * @param guards the counters of the guard that trips
	 * @return 505
	 */
	static HttpResponseStatus refuseVersion(HttpRequest request, GuardCounters guards) {
		guards.increment(Guard.BAD_REQUEST);
		logger.debug("Rejecting request in {}: only HTTP/1.0 and HTTP/1.1 are served on an HTTP/1 connection: 505",
				request.protocolVersion());
		return HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED;
	}

	/**
	 * Whether a request expects what the server can not meet (RFC 9110, section 10.1.1: {@code 100-continue} is
	 * the only expectation defined), to be refused with 417.
	 * @param request the request head
	 * @return {@code true} if it expects anything else
	 */
	static boolean isUnsupportedExpectation(HttpRequest request) {
		String expect = request.headers().get(HttpHeaderNames.EXPECT);
		return expect != null && !HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect.trim());
	}

	/**
	 * The error that refuses a request with an expectation the server can not meet, counted and logged as every
	 * other refusal is.
	 * @param request the request head
	 * @param guards the counters of the guard that trips
	 * @return 417
	 */
	static HttpResponseStatus refuseExpectation(HttpRequest request, GuardCounters guards) {
		guards.increment(Guard.BAD_REQUEST);
		logger.debug("Rejecting request expecting '{}': only 100-continue is supported: 417",
				request.headers().get(HttpHeaderNames.EXPECT));
		return HttpResponseStatus.EXPECTATION_FAILED;
	}

	/**
	 * The error that refuses a request whose head announces a body larger than the limit.
	 * @param contentLength the announced length
	 * @param maxBody the largest body allowed
	 * @param guards the counters of the guard that trips
	 * @return 413
	 */
	static HttpResponseStatus refuseAnnouncedBody(long contentLength, long maxBody, GuardCounters guards) {
		guards.increment(Guard.MAX_REQUEST_BODY_SIZE);
		logger.debug("Request body of {} bytes exceeds khamsin.max-request-body-size ({} bytes): 413", contentLength,
				maxBody);
		return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
	}

	/**
	 * The error that refuses a request target the application could not be given.
	 * @param request the request head
	 * @param cause why the target could not be parsed
	 * @param guards the counters of the guard that trips
	 * @return 400
	 */
	static HttpResponseStatus refuseTarget(HttpRequest request, Exception cause, GuardCounters guards) {
		guards.increment(Guard.BAD_REQUEST);
		logger.debug("Rejecting request target '{}': {}", request.uri(), cause.getMessage());
		return HttpResponseStatus.BAD_REQUEST;
	}

	/**
	 * The error that refuses a request body that grew past the limit as it arrived.
	 * @param maxBody the largest body allowed
	 * @param guards the counters of the guard that trips
	 * @return 413
	 */
	static HttpResponseStatus refuseBody(long maxBody, GuardCounters guards) {
		guards.increment(Guard.MAX_REQUEST_BODY_SIZE);
		logger.debug("Request body exceeds khamsin.max-request-body-size ({} bytes): 413", maxBody);
		return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
	}

	/**
	 * An error response, after which the connection closes: no body, {@code Connection: close}, {@code Date}
	 * and {@code Server}.
	 * @param status the status
	 * @param serverHeader the {@code Server} header, or {@code null}
	 * @return the response
	 */
	static FullHttpResponse error(HttpResponseStatus status, String serverHeader) {
		FullHttpResponse response = empty(status);
		response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
		response.headers().set(HttpHeaderNames.DATE, DateHeader.now());
		if (serverHeader != null) {
			response.headers().set(HttpHeaderNames.SERVER, serverHeader);
		}
		return response;
	}

	/**
	 * The answer to {@code OPTIONS *} (RFC 9112, section 3.2.4): the methods the server supports, with no body.
	 * @return the response, for the connection to complete its head
	 */
	static FullHttpResponse serverOptions() {
		FullHttpResponse response = empty(HttpResponseStatus.OK);
		response.headers().set(HttpHeaderNames.ALLOW, ALLOWED_METHODS);
		return response;
	}

	/**
	 * The interim response that asks the client for the body it held back (RFC 9110, section 10.1.1).
	 * @return {@code 100 Continue}
	 */
	static FullHttpResponse continueResponse() {
		return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER,
				HEADERS.newEmptyHeaders(), EmptyHttpHeaders.INSTANCE);
	}

	private static FullHttpResponse empty(HttpResponseStatus status) {
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER,
				HEADERS.newHeaders(), EmptyHttpHeaders.INSTANCE);
		response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
		return response;
	}

}
