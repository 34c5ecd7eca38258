package io.khamsin.benchmark.load;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import org.HdrHistogram.Histogram;

/**
 * One load run, confined to the generator's event loop. Request {@code i} is due at
 * {@code start + i / rate}; it goes to connection {@code i mod connections}, and waits in that connection's
 * {@link IntendedQueue} while the previous request there is unanswered. A connection-per-request run opens a new
 * connection at each due time instead.
 * <p>
 * A timer wakes the loop at each due time only while some connection could send: while every connection awaits an
 * answer, a due request could only queue, so the next answer catches the schedule up instead (the intended times
 * are the same either way). Waking at every due time of an overloaded server cost the generator about 1.5 to 2
 * times the CPU per request of its closed loop (20 to 35 us against 15 us, measured against nginx on this
 * machine), which made its open-loop peak read lower than wrk's.
 */
final class LoadRun {

	private final LoadSpec spec;

	private final EventLoop loop;

	private final Bootstrap bootstrap;

	private final CompletableFuture<LoadResult> result;

	private final ByteBuf request;

	private final LatencyRecorder recorder = new LatencyRecorder();

	private final List<Connection> connections = new ArrayList<>();

	private final List<Connection> dirty = new ArrayList<>();

	private final double intervalNanos;

	private long start;

	private long windowStart;

	private long windowEnd;

	private long next;

	private long completed;

	private long completedInWindow;

	private long errors;

	private String firstError;

	private long bodyBytes;

	private int perRequestOpen;

	private long handshakes;

	private long resumedHandshakes;

	private boolean finished;

	/** Whether the schedule has started. */
	private boolean begun;

	/** Whether every request of the window has been submitted (the run is draining). */
	private boolean scheduled;

	/** When the earliest pending timer fires, {@code Long.MAX_VALUE} for none. */
	private long timerAt = Long.MAX_VALUE;

	LoadRun(LoadSpec spec, EventLoop loop, Bootstrap bootstrap, CompletableFuture<LoadResult> result) {
		this.spec = spec;
		this.loop = loop;
		this.bootstrap = bootstrap.clone(loop);
		this.result = result;
		this.request = spec.request().encode(authority(spec.address()));
		this.intervalNanos = spec.closedLoop() ? 0 : 1e9 / spec.rate();
	}

	private static String authority(InetSocketAddress address) {
		return address.getHostString() + ":" + address.getPort();
	}

	void start() {
		if (this.spec.connectionPerRequest()) {
			begin();
			return;
		}
		int[] pending = { this.spec.connections() };
		for (int i = 0; i < this.spec.connections(); i++) {
			Connection connection = new Connection();
			connection.keepAlive = true;
			this.connections.add(connection);
			connect(connection).addListener((ChannelFuture future) -> {
				if (!future.isSuccess()) {
					fail(new IllegalStateException("cannot connect to " + this.spec.address() + ": "
							+ future.cause().getMessage(), future.cause()));
				}
				else if (--pending[0] == 0) {
					begin();
				}
			});
		}
	}

	private ChannelFuture connect(Connection connection) {
		ChannelHandler handler = new ConnectionHandler(connection);
		ClientTls tls = this.spec.tls();
		if (tls != null) {
			InetSocketAddress address = this.spec.address();
			ChannelHandler plain = handler;
			handler = new ChannelInitializer<Channel>() {
				@Override
				protected void initChannel(Channel channel) {
					channel.pipeline().addLast(tls.newHandler(channel.alloc(), address.getHostString(), address.getPort()),
							plain);
				}
			};
		}
		return this.bootstrap.clone().handler(handler).connect(this.spec.address());
	}

	private void begin() {
		if (this.finished) {
			return;
		}
		this.begun = true;
		this.start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
		this.windowStart = this.start + this.spec.warmup().toNanos();
		this.windowEnd = this.windowStart + this.spec.duration().toNanos();
		if (this.spec.closedLoop() && this.spec.connectionPerRequest()) {
			this.loop.schedule(() -> {
				for (int i = 0; i < this.spec.connections(); i++) {
					openForRequest(System.nanoTime());
				}
			}, 1, TimeUnit.MILLISECONDS);
			this.loop.schedule(this::drain, this.windowEnd - System.nanoTime(), TimeUnit.NANOSECONDS);
		}
		else if (this.spec.closedLoop()) {
			this.loop.schedule(() -> {
				for (Connection connection : this.connections) {
					connection.send(System.nanoTime());
				}
				flushDirty();
			}, 1, TimeUnit.MILLISECONDS);
			this.loop.schedule(this::drain, this.windowEnd - System.nanoTime(), TimeUnit.NANOSECONDS);
		}
		else {
			arm(this.start);
			// However busy the connections are, the schedule ends and the run drains at the window's end.
			this.loop.schedule(() -> tick(this.windowEnd), this.windowEnd - System.nanoTime(), TimeUnit.NANOSECONDS);
		}
	}

	private long intended(long index) {
		return this.start + (long) (index * this.intervalNanos);
	}

	private void arm(long at) {
		if (at < this.timerAt) {
			this.timerAt = at;
			this.loop.schedule(() -> tick(at), at - System.nanoTime(), TimeUnit.NANOSECONDS);
		}
	}

	private void tick(long at) {
		if (at == this.timerAt) {
			this.timerAt = Long.MAX_VALUE;
		}
		if (this.finished) {
			return;
		}
		submitDue();
		flushDirty();
		scheduleNext();
	}

	/** Submit every request due by now. */
	private void submitDue() {
		long now = System.nanoTime();
		long due;
		while ((due = intended(this.next)) <= now && due < this.windowEnd) {
			if (this.spec.connectionPerRequest()) {
				openForRequest(due);
			}
			else {
				this.connections.get((int) (this.next % this.connections.size())).submit(due);
			}
			this.next++;
		}
	}

	/** Arm the timer for the next due request, unless no connection could send it (the next answer catches up). */
	private void scheduleNext() {
		if (this.scheduled || this.finished) {
			return;
		}
		long due = intended(this.next);
		if (due >= this.windowEnd) {
			this.scheduled = true;
			drain();
		}
		else if (this.spec.connectionPerRequest() || anyIdle()) {
			arm(due);
		}
	}

	private boolean anyIdle() {
		for (Connection connection : this.connections) {
			if (!connection.inFlight && connection.channel != null) {
				return true;
			}
		}
		return false;
	}

	/** After an answer on a keep-alive connection of an open-loop run: catch the schedule up, re-arm the timer. */
	private void catchUp() {
		if (this.begun && !this.scheduled && !this.finished) {
			submitDue();
			scheduleNext();
		}
	}

	private void flushDirty() {
		for (Connection connection : this.dirty) {
			connection.dirty = false;
			connection.channel.flush();
		}
		this.dirty.clear();
	}

	private void drain() {
		long deadline = Math.max(System.nanoTime(), this.windowEnd) + this.spec.drainTimeout().toNanos();
		awaitAnswers(deadline);
	}

	private void awaitAnswers(long deadline) {
		if (this.finished) {
			return;
		}
		boolean outstanding = this.perRequestOpen > 0;
		for (Connection connection : this.connections) {
			outstanding |= connection.inFlight || !connection.waiting.isEmpty();
		}
		if (outstanding && System.nanoTime() < deadline) {
			this.loop.schedule(() -> awaitAnswers(deadline), 1, TimeUnit.MILLISECONDS);
			return;
		}
		for (Connection connection : this.connections) {
			if (connection.inFlight) {
				error(connection.intended, "no answer within " + this.spec.drainTimeout().toMillis() + " ms");
			}
			while (!connection.waiting.isEmpty()) {
				error(connection.waiting.poll(), "not sent: the connection was still waiting for an earlier answer");
			}
		}
		if (this.perRequestOpen > 0) {
			errorCount(this.perRequestOpen, "no answer within " + this.spec.drainTimeout().toMillis() + " ms");
		}
		finish();
	}

	private void finish() {
		this.finished = true;
		for (Connection connection : this.connections) {
			if (connection.channel != null) {
				connection.channel.close();
			}
		}
		this.request.release();
		long window = this.windowEnd - this.windowStart;
		Histogram copy = this.recorder.responseTime().copy();
		this.result.complete(new LoadResult(this.spec.rate(), this.completedInWindow / (window / 1e9), this.completed,
				this.errors, this.firstError, copy, this.recorder.serviceTime().getValueAtPercentile(99),
				this.recorder.sendLag().getValueAtPercentile(99), this.bodyBytes, window, this.handshakes,
				this.resumedHandshakes, this.recorder.refusalTime().copy()));
	}

	private void fail(Throwable cause) {
		if (!this.finished) {
			this.finished = true;
			for (Connection connection : this.connections) {
				if (connection.channel != null) {
					connection.channel.close();
				}
			}
			this.request.release();
			this.result.completeExceptionally(cause);
		}
	}

	private boolean inWindow(long nanos) {
		return nanos >= this.windowStart && nanos < this.windowEnd;
	}

	private void answered(long intended, long sent, int status, long bytes) {
		long now = System.nanoTime();
		if (inWindow(now)) {
			this.completedInWindow++;
			this.bodyBytes += bytes;
		}
		if (!inWindow(intended)) {
			return;
		}
		RequestTemplate template = this.spec.request();
		if (status != template.expectedStatus()) {
			if (status == 503) {
				this.recorder.recordRefusal(intended, now);
			}
			error(intended, "status " + status + " (expected " + template.expectedStatus() + ")");
		}
		else if (template.expectedBodyLength() >= 0 && bytes != template.expectedBodyLength()) {
			error(intended, "body of " + bytes + " bytes (expected " + template.expectedBodyLength() + ")");
		}
		else {
			this.completed++;
			this.recorder.record(intended, sent, now);
		}
	}

	private void error(long intended, String reason) {
		if (inWindow(intended)) {
			errorCount(1, reason);
		}
	}

	private void errorCount(long count, String reason) {
		this.errors += count;
		if (this.firstError == null) {
			this.firstError = reason;
		}
	}

	private void openForRequest(long intended) {
		if (this.perRequestOpen >= LoadSpec.MAX_CONNECTIONS_IN_FLIGHT) {
			error(intended, "more than " + LoadSpec.MAX_CONNECTIONS_IN_FLIGHT + " connections awaiting an answer");
			return;
		}
		this.perRequestOpen++;
		Connection connection = new Connection();
		connection.perRequest = true;
		connection.intended = intended;
		connect(connection).addListener((ChannelFuture future) -> {
			if (!future.isSuccess()) {
				this.perRequestOpen--;
				error(intended, "connect failed: " + future.cause().getMessage());
				replace();
			}
		});
	}

	/** In a closed-loop run with a connection per request: open the next connection in place of one that ended. */
	private void replace() {
		if (this.spec.closedLoop() && this.spec.connectionPerRequest() && !this.finished) {
			long now = System.nanoTime();
			if (now < this.windowEnd) {
				openForRequest(now);
			}
		}
	}

	private void handshaken(SslHandshakeCompletionEvent event, SslHandler handler) {
		if (event.isSuccess() && inWindow(System.nanoTime())) {
			this.handshakes++;
			if (ClientTls.resumed(handler.engine())) {
				this.resumedHandshakes++;
			}
		}
	}

	/** One connection's state: its waiting requests and the one in flight. */
	private final class Connection implements ResponseParser.Listener {

		private final IntendedQueue waiting = new IntendedQueue();

		private Channel channel;

		private ResponseParser parser;

		private boolean perRequest;

		private boolean keepAlive;

		private boolean inFlight;

		private boolean dirty;

		private long intended;

		private long sent;

		void submit(long due) {
			if (this.inFlight || this.channel == null || !this.channel.isActive()) {
				this.waiting.add(due);
			}
			else {
				send(due);
			}
		}

		void send(long due) {
			this.intended = due;
			this.sent = System.nanoTime();
			this.inFlight = true;
			this.channel.write(LoadRun.this.request.retainedDuplicate(), this.channel.voidPromise());
			if (!this.dirty) {
				this.dirty = true;
				LoadRun.this.dirty.add(this);
			}
		}

		@Override
		public void onResponse(int status, long bytes, boolean close) {
			this.inFlight = false;
			answered(this.intended, this.sent, status, bytes);
			if (this.perRequest) {
				LoadRun.this.perRequestOpen--;
				this.perRequest = false;
				this.channel.close();
				replace();
				return;
			}
			if (close) {
				this.channel.close();
				return;
			}
			// This connection's oldest waiting request first, then the schedule's newer ones.
			sendNext();
			if (!LoadRun.this.spec.closedLoop()) {
				catchUp();
			}
		}

		private void sendNext() {
			if (LoadRun.this.finished) {
				return;
			}
			if (LoadRun.this.spec.closedLoop()) {
				long now = System.nanoTime();
				if (now < LoadRun.this.windowEnd) {
					send(now);
				}
			}
			else if (!this.waiting.isEmpty()) {
				send(this.waiting.poll());
			}
		}

		void active(Channel channel) {
			this.channel = channel;
			this.parser = new ResponseParser(this);
			if (this.perRequest) {
				send(this.intended);
				flushDirty();
			}
			else if (!LoadRun.this.finished && this.waiting.size() > 0 && !this.inFlight) {
				send(this.waiting.poll());
				flushDirty();
			}
			if (this.keepAlive && !LoadRun.this.spec.closedLoop()) {
				// A reconnected connection may send what fell due meanwhile.
				catchUp();
				flushDirty();
			}
		}

		void inactive(Channel channel) {
			if (channel != this.channel) {
				return;
			}
			this.parser.onClose();
			if (this.inFlight) {
				this.inFlight = false;
				error(this.intended, "connection closed before the answer");
			}
			if (this.perRequest) {
				LoadRun.this.perRequestOpen--;
				this.perRequest = false;
				replace();
				return;
			}
			if (this.keepAlive && !LoadRun.this.finished) {
				// The server closed a keep-alive connection (a keep-alive limit or an error): carry on on a new one.
				this.channel = null;
				connect(this).addListener((ChannelFuture future) -> {
					if (!future.isSuccess()) {
						fail(new IllegalStateException("cannot reconnect to " + LoadRun.this.spec.address() + ": "
								+ future.cause().getMessage(), future.cause()));
					}
				});
			}
		}

	}

	/** The per-channel handler: feeds the connection's parser. */
	private final class ConnectionHandler extends ChannelInboundHandlerAdapter {

		private final Connection connection;

		ConnectionHandler(Connection connection) {
			this.connection = connection;
		}

		@Override
		public void channelActive(ChannelHandlerContext ctx) {
			this.connection.active(ctx.channel());
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			ByteBuf in = (ByteBuf) msg;
			try {
				this.connection.parser.parse(in);
			}
			finally {
				in.release();
			}
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext ctx) {
			flushDirty();
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			this.connection.inactive(ctx.channel());
		}

		@Override
		public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
			if (event instanceof SslHandshakeCompletionEvent handshake) {
				handshaken(handshake, ctx.pipeline().get(SslHandler.class));
			}
			ctx.fireUserEventTriggered(event);
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			if (this.connection.inFlight) {
				this.connection.inFlight = false;
				error(this.connection.intended, String.valueOf(cause.getMessage()));
			}
			ctx.close();
		}

	}

}
