package io.khamsin.container.tls;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FileRegion;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.ktls.RecordOpener;
import io.khamsin.container.ktls.TestRecords;
import io.khamsin.container.ktls.TrafficKeys;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A TLS connection run by {@link KernelTlsHandler} on a real socket, with the JDK's TLS client: what the handler
 * would hand the kernel (keys and sequence number) opens exactly the records it sends after the handshake; when a
 * stand-in for the kernel seals what follows with them, the client reads it, a file region included; and on this
 * machine's kernel the real socket options are tried and the connection carries on in user space if refused.
 */
class KernelTlsHandlerTests {

	private static final DevelopmentCertificate CERTIFICATE = DevelopmentCertificate.create();

	private static final List<String> ALPN = List.of("h2", "http/1.1");

	@TempDir
	static Path files;

	@Test
	void theKeysAndSequenceGivenToTheKernelOpenTheRecordsSentAfterTheHandshake() throws Exception {
		RecordingKernel kernel = new RecordingKernel(false);
		try (TestServer server = TestServer.start(kernel, false); SSLSocket client = connect(server, "TLSv1.3")) {
			assertThat(exchange(client, "hello")).isEqualTo("echo:hello");
			assertThat(exchange(client, "again")).isEqualTo("echo:again");
			assertThat(kernel.sequence).as("Bouncy Castle sends TLS 1.3 no ticket: nothing sealed yet").isZero();
			List<byte[]> records = records(server.capture.bytes(), kernel.capturedAt);
			RecordOpener opener = new RecordOpener(kernel.keys);
			assertThat(records).hasSize(2);
			assertThat(answer(opener.open(records.get(0), 0))).isEqualTo("echo:hello");
			assertThat(answer(opener.open(records.get(1), 1))).isEqualTo("echo:again");
			assertThat(opener.open(records.get(1), 0)).isNull();
			KernelTlsHandler handler = server.handler.get();
			assertThat(handler.kernelSends()).isFalse();
			assertThat(handler.userspaceReason()).isEqualTo("kept in user space by the test");
			assertThat(handler.protocolVersion()).isEqualTo("TLSv1.3");
			assertThat(handler.applicationProtocol()).isEqualTo("http/1.1");
		}
	}

	@Test
	void whenTheKernelSealsWhatFollowsTheClientReadsItFileRegionsIncluded() throws Exception {
		Path file = files.resolve("body.bin");
		byte[] body = new byte[100_000];
		for (int i = 0; i < body.length; i++) {
			body[i] = (byte) (i * 31);
		}
		Files.write(file, body);
		RecordingKernel kernel = new RecordingKernel(true);
		try (TestServer server = TestServer.start(kernel, false); SSLSocket client = connect(server, "TLSv1.3")) {
			assertThat(exchange(client, "hello")).isEqualTo("echo:hello");
			assertThat(server.handler.get().kernelSends()).isTrue();
			assertThat(exchange(client, "again")).isEqualTo("echo:again");
			send(client, "file:" + file);
			byte[] received = new byte[body.length];
			new DataInputStream(client.getInputStream()).readFully(received);
			assertThat(received).isEqualTo(body);
			assertThat(exchange(client, "after the file")).isEqualTo("echo:after the file");
		}
	}

	@Test
	void aTls12ConnectionStaysInUserspaceAndSaysWhy() throws Exception {
		RecordingKernel kernel = new RecordingKernel(true);
		try (TestServer server = TestServer.start(kernel, false); SSLSocket client = connect(server, "TLSv1.2")) {
			assertThat(exchange(client, "hello")).isEqualTo("echo:hello");
			KernelTlsHandler handler = server.handler.get();
			assertThat(handler.protocolVersion()).isEqualTo("TLSv1.2");
			assertThat(handler.kernelSends()).isFalse();
			assertThat(handler.userspaceReason()).contains("TLS 1.2");
			assertThat(kernel.keys).as("the kernel was not asked").isNull();
		}
	}

	@Test
	void alpnChoosesByTheServersPreference() throws Exception {
		try (TestServer server = TestServer.start(new RecordingKernel(false), false);
				SSLSocket client = connect(server, "TLSv1.3", "http/1.1", "h2")) {
			assertThat(exchange(client, "hello")).isEqualTo("echo:hello");
			assertThat(client.getApplicationProtocol()).isEqualTo("h2");
			assertThat(server.handler.get().applicationProtocol()).isEqualTo("h2");
		}
	}

	@Test
	void theKernelTakesTheConnectionOverWhereItHasTlsAndARefusalKeepsItInUserspace() throws Exception {
		Assumptions.assumeTrue(Epoll.isAvailable(), "epoll is not available: " + Epoll.unavailabilityCause());
		Path available = Path.of("/proc/sys/net/ipv4/tcp_available_ulp");
		Assumptions.assumeTrue(Files.isReadable(available), available + " cannot be read: not a Linux kernel with ULPs");
		String ulps = Files.readString(available).trim();
		boolean kernelTls = List.of(ulps.split("\\s+")).contains("tls");
		try (TestServer server = TestServer.start(true);
				SSLSocket client = connect(server, "TLSv1.3")) {
			assertThat(exchange(client, "hello")).isEqualTo("echo:hello");
			assertThat(exchange(client, "again")).isEqualTo("echo:again");
			KernelTlsHandler handler = server.handler.get();
			if (kernelTls) {
				assertThat(handler.kernelSends()).as("the kernel offers tls (%s), yet: %s", ulps, handler.userspaceReason())
					.isTrue();
				// The kernel's own count of the sockets whose sending its TLS layer does in software.
				assertThat(Files.readString(Path.of("/proc/net/tls_stat"))).containsPattern("TlsCurrTxSw\\s+[1-9]");
			}
			else if (!handler.kernelSends()) {
				// A privileged process may still load the module on demand; this one was refused.
				assertThat(handler.userspaceReason()).contains("refused the tls upper layer protocol");
			}
		}
	}

	@Test
	void theKernelsSocketOptionsNeedAUnixChannel() throws Exception {
		try (TestServer server = TestServer.start(false);
				SSLSocket client = connect(server, "TLSv1.3")) {
			assertThat(exchange(client, "hello")).isEqualTo("echo:hello");
			assertThat(server.handler.get().userspaceReason()).contains("cannot set the kernel's TLS socket options");
		}
	}

	@Test
	void plaintextSentToTheTlsPortClosesTheConnection() throws Exception {
		// Before a ClientHello there is no record version to send an alert with: Bouncy Castle closes. (khamsin's
		// TLS port answers plain HTTP with a 400 before this handler is installed.)
		try (TestServer server = TestServer.start(new RecordingKernel(false), false);
				Socket plain = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
			plain.setSoTimeout(5_000);
			plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			InputStream in = plain.getInputStream();
			ByteArrayOutputStream received = new ByteArrayOutputStream();
			int b;
			while ((b = in.read()) != -1) {
				received.write(b);
			}
			byte[] answer = received.toByteArray();
			assertThat(answer.length == 0 || answer[0] == 21).as("nothing, or an alert, then the close").isTrue();
		}
	}

	private static SSLSocket connect(TestServer server, String protocol, String... alpn) throws Exception {
		KeyStore trust = KeyStore.getInstance("PKCS12");
		trust.load(null, null);
		trust.setCertificateEntry("khamsin", CERTIFICATE.certificate());
		TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trustManagers.init(trust);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(null, trustManagers.getTrustManagers(), null);
		SSLSocket socket = (SSLSocket) context.getSocketFactory()
			.createSocket(InetAddress.getLoopbackAddress(), server.port());
		socket.setSoTimeout(10_000);
		SSLParameters parameters = socket.getSSLParameters();
		parameters.setProtocols(new String[] { protocol });
		parameters.setApplicationProtocols((alpn.length > 0) ? alpn : new String[] { "http/1.1" });
		socket.setSSLParameters(parameters);
		socket.startHandshake();
		return socket;
	}

	/** The answer an opened record carries, after its 4-byte length. */
	private static String answer(byte[] inner) {
		assertThat(inner).as("the record opens").isNotNull();
		byte[] content = RecordOpener.content(inner);
		return new String(content, 4, content.length - 4, StandardCharsets.UTF_8);
	}

	private static void send(SSLSocket client, String message) throws IOException {
		byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
		client.getOutputStream().write(ByteBuffer.allocate(4).putInt(bytes.length).array());
		client.getOutputStream().write(bytes);
		client.getOutputStream().flush();
	}

	private static String exchange(SSLSocket client, String message) throws IOException {
		send(client, message);
		DataInputStream in = new DataInputStream(client.getInputStream());
		byte[] answer = new byte[in.readInt()];
		in.readFully(answer);
		return new String(answer, StandardCharsets.UTF_8);
	}

	/** The records in what the server sent, from an offset that is a record boundary. */
	private static List<byte[]> records(byte[] sent, int from) {
		List<byte[]> records = new ArrayList<>();
		int i = from;
		while (i + 5 <= sent.length) {
			int length = ((sent[i + 3] & 0xff) << 8) | (sent[i + 4] & 0xff);
			records.add(Arrays.copyOfRange(sent, i, i + 5 + length));
			i += 5 + length;
		}
		return records;
	}

	/**
	 * A kernel for the test: records the keys, the sequence number and where in the bytes sent it was asked, and
	 * either refuses or takes over by sealing what follows as the kernel's TLS layer does.
	 */
	private static final class RecordingKernel implements KernelTlsSwitch {

		private final boolean takeOver;

		private volatile TrafficKeys keys;

		private volatile long sequence = -1;

		private volatile int capturedAt;

		RecordingKernel(boolean takeOver) {
			this.takeOver = takeOver;
		}

		@Override
		public String engage(Channel channel, TrafficKeys keys, long sequence) {
			TrafficKeys copy = new TrafficKeys(keys.cipher(), keys.key(), keys.iv());
			this.keys = copy;
			this.sequence = sequence;
			this.capturedAt = ((Capture) channel.pipeline().get("capture")).size();
			if (!this.takeOver) {
				return "kept in user space by the test";
			}
			channel.pipeline().addFirst("kernel", new KernelStandIn(copy, sequence));
			return null;
		}

	}

	/** Seals what the connection writes into TLS 1.3 application data records, as the kernel's TLS layer would. */
	private static final class KernelStandIn extends ChannelOutboundHandlerAdapter {

		private final TrafficKeys keys;

		private long sequence;

		KernelStandIn(TrafficKeys keys, long sequence) {
			this.keys = keys;
			this.sequence = sequence;
		}

		@Override
		public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
			byte[] plain;
			if (msg instanceof FileRegion region) {
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				while (region.transferred() < region.count()) {
					region.transferTo(Channels.newChannel(out), region.transferred());
				}
				region.release();
				plain = out.toByteArray();
			}
			else {
				ByteBuf buf = (ByteBuf) msg;
				plain = new byte[buf.readableBytes()];
				buf.readBytes(plain);
				buf.release();
			}
			ByteArrayOutputStream sealed = new ByteArrayOutputStream();
			for (int offset = 0; offset < plain.length; offset += 16_384) {
				sealed.write(TestRecords.seal(this.keys, this.sequence++,
						Arrays.copyOfRange(plain, offset, Math.min(plain.length, offset + 16_384)), 23));
			}
			ctx.write(Unpooled.wrappedBuffer(sealed.toByteArray()), promise);
		}

	}

	/** Keeps a copy of every byte the connection sends, below TLS. */
	@ChannelHandler.Sharable
	private static final class Capture extends ChannelDuplexHandler {

		private final ByteArrayOutputStream sent = new ByteArrayOutputStream();

		@Override
		public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
			if (msg instanceof ByteBuf buf) {
				byte[] bytes = ByteBufUtil.getBytes(buf);
				synchronized (this.sent) {
					this.sent.writeBytes(bytes);
				}
			}
			ctx.write(msg, promise);
		}

		int size() {
			synchronized (this.sent) {
				return this.sent.size();
			}
		}

		byte[] bytes() {
			synchronized (this.sent) {
				return this.sent.toByteArray();
			}
		}

	}

	/** Answers each length-prefixed message with {@code echo:} and it, or with a file for {@code file:<path>}. */
	private static final class Echo extends ChannelInboundHandlerAdapter {

		private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
			ByteBuf buf = (ByteBuf) msg;
			try {
				buf.readBytes(this.pending, buf.readableBytes());
			}
			finally {
				buf.release();
			}
			byte[] bytes = this.pending.toByteArray();
			int offset = 0;
			while (bytes.length - offset >= 4) {
				int length = ByteBuffer.wrap(bytes, offset, 4).getInt();
				if (bytes.length - offset - 4 < length) {
					break;
				}
				String message = new String(bytes, offset + 4, length, StandardCharsets.UTF_8);
				offset += 4 + length;
				if (message.startsWith("file:")) {
					Path file = Path.of(message.substring(5));
					ctx.writeAndFlush(new DefaultFileRegion(file.toFile(), 0, Files.size(file)));
				}
				else {
					byte[] answer = ("echo:" + message).getBytes(StandardCharsets.UTF_8);
					ctx.writeAndFlush(Unpooled.buffer(4 + answer.length).writeInt(answer.length).writeBytes(answer));
				}
			}
			this.pending.reset();
			this.pending.write(bytes, offset, bytes.length - offset);
		}

	}

	private static final class TestServer implements AutoCloseable {

		private final EventLoopGroup group;

		private final Channel listener;

		private final Capture capture = new Capture();

		private final AtomicReference<KernelTlsHandler> handler = new AtomicReference<>();

		private TestServer(Supplier<KernelTlsHandler> handlers, boolean epoll) {
			IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
			Class<? extends ServerChannel> type = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
			this.group = new MultiThreadIoEventLoopGroup(1, io);
			this.listener = new ServerBootstrap().group(this.group)
				.channel(type)
				.childHandler(new ChannelInitializer<Channel>() {
					@Override
					protected void initChannel(Channel channel) {
						KernelTlsHandler tls = handlers.get();
						TestServer.this.handler.set(tls);
						channel.pipeline().addLast("capture", TestServer.this.capture);
						channel.pipeline().addLast("tls", tls);
						channel.pipeline().addLast("echo", new Echo());
					}
				})
				.bind(InetAddress.getLoopbackAddress(), 0)
				.syncUninterruptibly()
				.channel();
		}

		/** A server whose connections hand their keys to a kernel of the test's. */
		static TestServer start(KernelTlsSwitch kernel, boolean epoll) {
			return new TestServer(() -> new KernelTlsHandler(new KernelTlsServer(KernelTlsHandler.CRYPTO,
					CERTIFICATE.material().privateKey(), CERTIFICATE.material().certificateChain(), ALPN, true), kernel),
					epoll);
		}

		/** A server whose connections are what khamsin makes: the kernel's socket options. */
		static TestServer start(boolean epoll) {
			return new TestServer(() -> KernelTlsHandler.of(CERTIFICATE.material(), ALPN), epoll);
		}

		int port() {
			return ((InetSocketAddress) this.listener.localAddress()).getPort();
		}

		@Override
		public void close() {
			this.listener.close().syncUninterruptibly();
			this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
		}

	}

}
