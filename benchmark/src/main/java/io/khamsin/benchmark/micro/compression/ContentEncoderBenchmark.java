package io.khamsin.benchmark.micro.compression;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufHolder;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.StandardCompressionOptions;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.khamsin.container.compression.CompressionConfig;
import io.khamsin.container.compression.ContentCoding;
import io.khamsin.container.compression.ContentEncoder;
import io.khamsin.container.compression.ResponseCompression;

/**
 * One response compressed from its identity bytes, encoder set-up included, as a server does it per response:
 * khamsin's {@code ContentEncoder} against Netty's {@code HttpContentCompressor} on an {@code EmbeddedChannel}, with
 * the same levels (gzip 6, br 4, zstd 3). {@code whole*} is a single-buffer JSON body of {@code size} bytes;
 * {@code events*} is a stream of 100 server-sent events of about 90 bytes, flushed one by one. Each method returns
 * the coded bytes it produced, so the ratio can be read beside the time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ContentEncoderBenchmark {

	static final int EVENTS = 100;

	private static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;

	@Param({ "gzip", "br", "zstd" })
	public String coding;

	@Param({ "8192", "131072", "1048576" })
	public int size;

	private ResponseCompression compression;

	private ContentCoding contentCoding;

	private ByteBuf body;

	private ByteBuf[] events;

	private final List<ByteBuf> fixtures = new ArrayList<>();

	@Setup
	public void setUp() {
		this.compression = new ResponseCompression(CompressionConfig.of(true, List.of(), 0, List.of()));
		this.contentCoding = ContentCoding.of(this.coding);
		this.body = unreleasable(json(this.size));
		this.events = new ByteBuf[EVENTS];
		for (int i = 0; i < EVENTS; i++) {
			this.events[i] = unreleasable(("id: " + i + "\nevent: quote\ndata: {\"symbol\":\"KHM\",\"bid\":"
					+ (1000 + i % 17) + ",\"ask\":" + (1002 + i % 13) + "}\n\n").getBytes(StandardCharsets.UTF_8));
		}
	}

	@Benchmark
	public long wholeKhamsin() {
		ContentEncoder encoder = this.compression.newEncoder(this.contentCoding, ALLOCATOR);
		return drain(encoder.encodeWhole(this.body.duplicate()));
	}

	@Benchmark
	public long wholeNetty() {
		EmbeddedChannel channel = nettyExchange();
		DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
		head.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
		channel.writeOutbound(head, new DefaultLastHttpContent(this.body.duplicate()));
		long bytes = drain(channel);
		channel.finishAndReleaseAll();
		return bytes;
	}

	@Benchmark
	public long eventsKhamsin() {
		ContentEncoder encoder = this.compression.newEncoder(this.contentCoding, ALLOCATOR);
		long bytes = 0;
		for (ByteBuf event : this.events) {
			bytes += drain(encoder.encode(event.duplicate()));
			bytes += drain(encoder.flush());
		}
		return bytes + drain(encoder.finish());
	}

	@Benchmark
	public long eventsNetty() {
		EmbeddedChannel channel = nettyExchange();
		DefaultHttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
		head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
		channel.writeOutbound(head);
		long bytes = 0;
		for (ByteBuf event : this.events) {
			// writeOutbound flushes: each event is written and flushed as a streamed response part is.
			channel.writeOutbound(new DefaultHttpContent(event.duplicate()));
			bytes += drain(channel);
		}
		channel.writeOutbound(new DefaultLastHttpContent());
		bytes += drain(channel);
		channel.finishAndReleaseAll();
		return bytes;
	}

	/** A channel on which Netty's compressor has seen the request, ready for its response. */
	private EmbeddedChannel nettyExchange() {
		EmbeddedChannel channel = new EmbeddedChannel(new HttpContentCompressor(0,
				StandardCompressionOptions.gzip(6, 15, 8), StandardCompressionOptions.brotli(),
				StandardCompressionOptions.zstd()));
		DefaultFullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
		request.headers().set(HttpHeaderNames.ACCEPT_ENCODING, this.coding);
		channel.writeInbound(request);
		ReferenceCountUtil.release(channel.readInbound());
		return channel;
	}

	private static long drain(ByteBuf buffer) {
		int bytes = buffer.readableBytes();
		buffer.release();
		return bytes;
	}

	private static long drain(EmbeddedChannel channel) {
		long bytes = 0;
		Object message;
		while ((message = channel.readOutbound()) != null) {
			if (message instanceof ByteBufHolder holder) {
				bytes += holder.content().readableBytes();
			}
			ReferenceCountUtil.release(message);
		}
		return bytes;
	}

	static byte[] json(int size) {
		StringBuilder json = new StringBuilder(size + 128).append('[');
		Random random = new Random(42);
		for (int i = 0; json.length() < size; i++) {
			json.append((i > 0) ? "," : "")
				.append("{\"id\":")
				.append(i)
				.append(",\"name\":\"item-")
				.append(random.nextInt(1000))
				.append("\",\"price\":")
				.append(random.nextInt(100_000) / 100.0)
				.append(",\"tags\":[\"a\",\"b\"]}");
		}
		return java.util.Arrays.copyOf(json.toString().getBytes(StandardCharsets.UTF_8), size);
	}

	private ByteBuf unreleasable(byte[] bytes) {
		ByteBuf direct = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
		this.fixtures.add(direct);
		return Unpooled.unreleasableBuffer(direct);
	}

	@TearDown
	public void tearDown() {
		this.fixtures.forEach(ByteBuf::release);
		this.fixtures.clear();
	}

}
