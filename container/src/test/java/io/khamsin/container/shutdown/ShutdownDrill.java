package io.khamsin.container.shutdown;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.engine.ShutdownResult;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.http3.Http3Config;
import io.khamsin.container.test.TestCertificates;
import io.khamsin.container.tls.TlsConfig;

import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * Graceful shutdowns under a steady load: each round starts a server whose handler answers after 0 to 50 ms, puts a
 * closed-loop load on it, begins a graceful shutdown once the load is steady, waits for it to end, stops the server
 * and settles the outcome of every request the load sent.
 */
final class ShutdownDrill {

	/** How long a graceful shutdown may take before the round counts it as aborted: far above the 50 ms of a request. */
	static final Duration GRACE = Duration.ofSeconds(20);

	/** The requests answered before a shutdown begins, so that every connection is busy. */
	private static final int STEADY = 50;

	private static final Duration STEADY_WAIT = Duration.ofSeconds(30);

	private static final Duration LOAD_END = Duration.ofSeconds(30);

	/** The protocols of the drill, and how much load each takes. */
	enum Protocol {

		H1("HTTP/1.1 keep-alive", 16, 1),

		H2C("h2c (prior knowledge)", 4, 32),

		H2("h2 (TLS, ALPN)", 4, 32),

		H3("h3 (QUIC)", 4, 16);

		private final String description;

		private final int connections;

		private final int streams;

		Protocol(String description, int connections, int streams) {
			this.description = description;
			this.connections = connections;
			this.streams = streams;
		}

		String description() {
			return this.description;
		}

		int connections() {
			return this.connections;
		}

		int streams() {
			return this.streams;
		}

	}

	/**
	 * One round's outcome.
	 * @param result how the server's graceful shutdown ended
	 * @param millis how long it took
	 * @param tally what became of the load's requests
	 * @param loadEnded whether the load ended, every request with an outcome
	 */
	record Round(ShutdownResult result, long millis, Tally tally, boolean loadEnded) {
	}

	private final TlsConfig serverTls;

	private final Map<Protocol, DelayedResponder> responders = new EnumMap<>(Protocol.class);

	private final Map<Protocol, KhamsinServer> servers = new EnumMap<>(Protocol.class);

	private final SslContext h2Client;

	private final QuicSslContext h3Client;

	ShutdownDrill(TestCertificates certificates) throws Exception {
		this.serverTls = TlsConfig.builder(certificates.server("localhost", "127.0.0.1").material("localhost")).build();
		this.h2Client = SslContextBuilder.forClient()
			.trustManager(certificates.ca())
			.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
					ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
					ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ApplicationProtocolNames.HTTP_2))
			.build();
		this.h3Client = QuicSslContextBuilder.forClient()
			.trustManager(certificates.ca())
			.applicationProtocols(Http3.supportedApplicationProtocols())
			.build();
	}

	Round round(Protocol protocol) throws Exception {
		DelayedResponder responder = this.responders.computeIfAbsent(protocol, (key) -> new DelayedResponder());
		// One server per protocol, started again for each round, as a stopped server can be.
		KhamsinServer server = this.servers.computeIfAbsent(protocol, (key) -> KhamsinServer.create(config(key), responder));
		responder.read().clear();
		server.start();
		Tally tally = new Tally();
		AtomicLong ids = new AtomicLong();
		Load load = null;
		try {
			load = load(protocol, server.port(), tally, ids);
			await().atMost(STEADY_WAIT).until(() -> tally.count(Outcome.COMPLETED) >= STEADY);
			long started = System.nanoTime();
			CompletableFuture<ShutdownResult> shutdown = server.shutdownGracefully();
			ShutdownResult result = shutdown.completeOnTimeout(ShutdownResult.REQUESTS_ACTIVE, GRACE.toMillis(),
					TimeUnit.MILLISECONDS).join();
			long millis = (System.nanoTime() - started) / 1_000_000;
			load.stopSending();
			server.stop();
			boolean ended = everyRequestHasAnOutcome(tally, ids);
			tally.settle(responder.read());
			return new Round(result, millis, tally, ended);
		}
		finally {
			if (load != null) {
				load.stopSending();
			}
			server.stop();
			if (load != null) {
				load.close();
			}
		}
	}

	private static boolean everyRequestHasAnOutcome(Tally tally, AtomicLong ids) {
		try {
			await().atMost(LOAD_END).until(() -> tally.total() == ids.get());
			return true;
		}
		catch (ConditionTimeoutException ex) {
			return false;
		}
	}

	private KhamsinServerConfig config(Protocol protocol) {
		KhamsinServerConfig.Builder builder = KhamsinServerConfig.builder().reactors(2);
		return switch (protocol) {
			case H1 -> builder.build();
			case H2C -> builder.http2(Http2Config.builder().enabled(true).build()).build();
			case H2 -> builder.tls(this.serverTls).http2(Http2Config.builder().enabled(true).build()).build();
			case H3 -> builder.tls(this.serverTls)
				.http2(Http2Config.builder().enabled(true).build())
				.http3(Http3Config.builder().enabled(true).build())
				.build();
		};
	}

	private Load load(Protocol protocol, int port, Tally tally, AtomicLong ids) {
		return switch (protocol) {
			case H1 -> new Http1Load(port, protocol.connections(), tally, ids);
			case H2C -> new Http2Load(port, null, protocol.connections(), protocol.streams(), tally, ids);
			case H2 -> new Http2Load(port, this.h2Client, protocol.connections(), protocol.streams(), tally, ids);
			case H3 -> new Http3Load(port, this.h3Client, protocol.connections(), protocol.streams(), tally, ids);
		};
	}

}
