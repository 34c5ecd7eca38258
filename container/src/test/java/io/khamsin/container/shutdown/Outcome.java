package io.khamsin.container.shutdown;

/**
 * What became of one request of a load during a graceful shutdown, as its client sees it, with the server's record of
 * the requests it read to tell a connection closed under an unread request from one closed under a request the
 * server took.
 */
enum Outcome {

	/** Answered in full: status 200 and the whole body that names the request. */
	COMPLETED(false),

	/** Its connection was refused: the listener had closed, or the draining server turned the connection away. */
	REFUSED_CONNECTION(true),

	/** Not sent: its connection had closed, or had been told to go (h1 {@code Connection: close}, GOAWAY). */
	NOT_SENT(true),

	/** HTTP/2 or HTTP/3: its stream was above what the server's GOAWAY let finish (RFC 9113 6.8, RFC 9114 5.2). */
	ABOVE_GOAWAY(true),

	/** Refused by its stream: {@code REFUSED_STREAM} (HTTP/2) or {@code H3_REQUEST_REJECTED} (HTTP/3). */
	REFUSED_STREAM(true),

	/**
	 * HTTP/1.1: its connection closed after the request was written, with no byte of a response, and the server never
	 * read it (RFC 9112 9.3.1 lets a client retry it).
	 */
	CLOSED_UNREAD(true),

	/** Taken by the server and not answered in full, or answered with another status or body. */
	FAILED(false);

	private final boolean retryable;

	Outcome(boolean retryable) {
		this.retryable = retryable;
	}

	/** @return whether the client can send the request again elsewhere, knowing that it was not processed */
	boolean retryable() {
		return this.retryable;
	}

}
