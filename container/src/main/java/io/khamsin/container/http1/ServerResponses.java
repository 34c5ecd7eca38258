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

import io.khamsin.container.engine.DateHeader;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.guard.GuardCounters;

/**
 * The responses an HTTP/1.1 connection writes itself, without the application: the error that refuses a request
 * (the 400, 414 and 431 of a head the decoder could not read, the 505 of another major version, the 408 of a
 * timeout, and the refusals of the exchange stage), and {@code 100 Continue}. A refusal of the head is counted as
 * its {@link Guard}; those of the exchange stage are counted there. The configured answers to fixed paths are
 * {@link Http1FixedResponses}.
 */
final class ServerResponses {

	// The category of the connection's handler: the one to turn on to follow what happens to a connection.
	private static final Logger logger = LoggerFactory.getLogger(Http1ServerHandler.class);

	private static final DefaultHttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory();

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
	 * The error that refuses a request whose body the decoder could not read (RFC 9112, section 7.1).
	 * @param cause why it could not
	 * @param guards the counters of the guard that tripped
	 * @return 400
	 */
	static HttpResponseStatus refuseMalformedBody(Throwable cause, GuardCounters guards) {
		guards.increment(Guard.BAD_REQUEST);
		logger.debug("Rejecting request with a malformed body with 400: {}", cause.getMessage());
		return HttpResponseStatus.BAD_REQUEST;
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
