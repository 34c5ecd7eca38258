package io.khamsin.container.shutdown;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP/1.1 keep-alive load on blocking sockets, one thread and one request in flight per connection. Before it
 * writes a request on a connection it has used, a client looks whether the server closed it meanwhile (a read of
 * 1 ms, the stale-connection check of common HTTP/1.1 clients), and it opens a new connection after a response that
 * says {@code Connection: close}.
 */
final class Http1Load implements Load {

	private static final int READ_TIMEOUT_MILLIS = 20_000;

	private final int port;

	private final Tally tally;

	private final AtomicLong ids;

	private volatile boolean stopped;

	Http1Load(int port, int connections, Tally tally, AtomicLong ids) {
		this.port = port;
		this.tally = tally;
		this.ids = ids;
		for (int i = 0; i < connections; i++) {
			Thread thread = new Thread(this::run, "h1-load-" + i);
			thread.setDaemon(true);
			thread.start();
		}
	}

	@Override
	public void stopSending() {
		this.stopped = true;
	}

	@Override
	public void close() {
		// Each thread ends by itself: it sees the load stopped, or its connection refused.
	}

	private void run() {
		Socket socket = null;
		try {
			while (!this.stopped) {
				long id = this.ids.incrementAndGet();
				if (socket == null) {
					try {
						socket = new Socket();
						socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 5_000);
					}
					catch (ConnectException ex) {
						this.tally.refused(id, Outcome.REFUSED_CONNECTION);
						return;
					}
				}
				else if (closedByServer(socket)) {
					this.tally.refused(id, Outcome.NOT_SENT);
					socket.close();
					socket = null;
					continue;
				}
				if (!exchange(socket, id)) {
					socket.close();
					socket = null;
				}
			}
		}
		catch (IOException ex) {
			this.tally.failed(-1, "client error: " + ex);
		}
		finally {
			if (socket != null) {
				try {
					socket.close();
				}
				catch (IOException ex) {
					// Closed anyway.
				}
			}
		}
	}

	private static boolean closedByServer(Socket socket) throws IOException {
		socket.setSoTimeout(1);
		try {
			// The end of the stream, or bytes the client did not ask for: either way the connection is done.
			socket.getInputStream().read();
			return true;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException ex) {
			return true;
		}
		finally {
			socket.setSoTimeout(READ_TIMEOUT_MILLIS);
		}
	}

	/**
	 * Send one request and read its response.
	 * @return whether the connection can carry the next request
	 */
	private boolean exchange(Socket socket, long id) throws IOException {
		socket.setSoTimeout(READ_TIMEOUT_MILLIS);
		try {
			OutputStream out = socket.getOutputStream();
			out.write(("GET /drill HTTP/1.1\r\nHost: localhost\r\n" + DelayedResponder.ID + ": " + id + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
		}
		catch (IOException ex) {
			this.tally.unanswered(id);
			return false;
		}
		// A buffer per response: nothing follows a response, and the stale check reads the socket itself.
		InputStream in = new BufferedInputStream(socket.getInputStream(), 1024);
		byte[] head = new byte[4096];
		int length = 0;
		try {
			while (length < 4 || !endsHead(head, length)) {
				int b = in.read();
				if (b == -1) {
					break;
				}
				if (length == head.length) {
					this.tally.failed(id, "a head longer than " + head.length + " bytes");
					return false;
				}
				head[length++] = (byte) b;
			}
		}
		catch (SocketTimeoutException ex) {
			this.tally.failed(id, "no response within " + READ_TIMEOUT_MILLIS + " ms");
			return false;
		}
		catch (IOException ex) {
			if (length == 0) {
				this.tally.unanswered(id);
			}
			else {
				this.tally.failed(id, "reset in the response's head: " + ex);
			}
			return false;
		}
		if (length == 0) {
			this.tally.unanswered(id);
			return false;
		}
		if (!endsHead(head, length)) {
			this.tally.failed(id, "the connection closed in the response's head");
			return false;
		}
		String[] lines = new String(head, 0, length, StandardCharsets.US_ASCII).split("\r\n");
		int status = Integer.parseInt(lines[0].split(" ")[1]);
		int contentLength = -1;
		boolean close = false;
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon < 0) {
				continue;
			}
			String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
			String value = lines[i].substring(colon + 1).trim();
			if (name.equals("content-length")) {
				contentLength = Integer.parseInt(value);
			}
			else if (name.equals("connection")) {
				close = value.equalsIgnoreCase("close");
			}
		}
		if (contentLength < 0) {
			this.tally.failed(id, "status " + status + " without Content-Length");
			return false;
		}
		byte[] body;
		try {
			body = in.readNBytes(contentLength);
		}
		catch (IOException ex) {
			this.tally.failed(id, "reset in the body: " + ex);
			return false;
		}
		if (body.length < contentLength) {
			this.tally.failed(id, "body truncated at " + body.length + " of " + contentLength + " bytes");
			return false;
		}
		if (status != 200 || !Arrays.equals(body, DelayedResponder.body(id))) {
			this.tally.failed(id, "status " + status + ", body " + new String(body, StandardCharsets.US_ASCII).strip());
			return false;
		}
		this.tally.completed();
		return !close;
	}

	private static boolean endsHead(byte[] head, int length) {
		return length >= 4 && head[length - 4] == '\r' && head[length - 3] == '\n' && head[length - 2] == '\r'
				&& head[length - 1] == '\n';
	}

}
