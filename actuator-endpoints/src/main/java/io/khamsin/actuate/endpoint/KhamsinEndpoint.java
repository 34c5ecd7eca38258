package io.khamsin.actuate.endpoint;

import java.io.IOException;
import java.io.InputStream;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;

import io.khamsin.boot.KhamsinWebServer;
import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.egress.EgressMode;
import io.khamsin.container.guard.Guard;
import io.khamsin.container.metrics.HandshakeCounts;
import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.QuicSnapshot;
import io.khamsin.container.metrics.ReactorSnapshot;
import io.khamsin.container.metrics.TlsFigures;
import io.khamsin.container.tls.TlsConfig;
import io.khamsin.container.tls.TlsContexts;
import io.khamsin.container.tls.TlsMaterial;
import io.khamsin.container.transport.ListenerInfo;
import io.khamsin.container.transport.ListenerSocket;
import io.khamsin.container.transport.ResolvedTransport;

/**
 * {@link Endpoint @Endpoint} that tells what khamsin runs and how it is doing: version, transport, listener
 * mode, reactors with their connections and load, the listeners with their sockets and the protocols and TLS each
 * offers (provider, versions, the certificates served and the handshakes counted), the open QUIC connections and
 * request streams of each reactor, guards with their settings and counts, and the
 * egress modes available, with the reason when one is not. Everything
 * but the version is read from the running server.
 */
@Endpoint(id = "khamsin")
public class KhamsinEndpoint {

	private static final String VERSION = readVersion();

	private final KhamsinMetrics metrics;

	private final ApplicationContext context;

	/**
	 * Create the endpoint.
	 * @param metrics the figures of the server
	 * @param context the context whose web server is described
	 */
	public KhamsinEndpoint(KhamsinMetrics metrics, ApplicationContext context) {
		this.metrics = metrics;
		this.context = context;
	}

	@ReadOperation
	public KhamsinDescriptor khamsin() {
		KhamsinServer server = server();
		if (server == null) {
			return new KhamsinDescriptor(VERSION, null, List.of(), this.metrics.reactors(), this.metrics.totals(), null,
					null, null, List.of(), fileBodies(), metricsDescriptor());
		}
		ResolvedTransport transport = server.transport();
		KhamsinServerConfig config = server.config();
		List<ListenerInfo> listeners = server.listeners();
		ServerDescriptor serverDescriptor = new ServerDescriptor(server.isRunning(), server.port(),
				(transport != null) ? transport.name() : null, (transport != null) ? transport.fallbackReason() : null,
				(server.listenerMode() != null) ? server.listenerMode().displayName() : null, config.reactors(),
				listeners.stream().map(ListenerDescriptor::of).toList());
		return new KhamsinDescriptor(VERSION, serverDescriptor, server.protocols(), this.metrics.reactors(),
				this.metrics.totals(), new GuardsDescriptor(settings(config), counts()),
				TlsDescriptor.of(listeners, server.tls(), server.metrics().tls()),
				QuicDescriptor.of(listeners, server.metrics()), server.egressModes(), fileBodies(), metricsDescriptor());
	}

	private List<FileBodies> fileBodies() {
		return this.metrics.egress().snapshot().entrySet().stream()
			.map((count) -> new FileBodies(count.getKey().path().tag(), count.getKey().tag(), count.getValue()))
			.toList();
	}

	private MetricsDescriptor metricsDescriptor() {
		return new MetricsDescriptor(this.metrics.enabled(), this.metrics.config().maxRoutes(),
				this.metrics.config().interval());
	}

	private KhamsinServer server() {
		if (this.context instanceof WebServerApplicationContext webServerContext
				&& webServerContext.getWebServer() instanceof KhamsinWebServer webServer) {
			return webServer.getKhamsinServer();
		}
		return null;
	}

	private static Map<String, Object> settings(KhamsinServerConfig config) {
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put(Guard.MAX_CONNECTIONS.tag(), config.maxConnections());
		settings.put(Guard.MAX_INITIAL_LINE_LENGTH.tag(), config.maxInitialLineLength());
		settings.put(Guard.MAX_HEADER_SIZE.tag(), config.maxHeaderSize());
		settings.put(Guard.MAX_REQUEST_BODY_SIZE.tag(), config.maxRequestBodySize());
		settings.put(Guard.HEADER_READ_TIMEOUT.tag(), config.headerReadTimeout());
		settings.put(Guard.BODY_READ_TIMEOUT.tag(), config.bodyReadTimeout());
		settings.put(Guard.MIN_REQUEST_BODY_RATE.tag(), config.minRequestBodyRate());
		settings.put(Guard.SEND_TIMEOUT.tag(), config.sendTimeout());
		settings.put(Guard.REQUEST_TIMEOUT.tag(), (config.requestTimeout() != null) ? config.requestTimeout() : "none");
		settings.put(Guard.OVERLOAD.tag(), (config.overload().enabled()) ? config.overload().maxQueueDelay() : "none");
		settings.put(Guard.IDLE_TIMEOUT.tag(), config.idleTimeout());
		settings.put(Guard.TLS_HANDSHAKE_TIMEOUT.tag(),
				(config.tls() != null) ? config.tls().handshakeTimeout() : "no TLS");
		return settings;
	}

	private Map<String, Long> counts() {
		Map<String, Long> counts = new LinkedHashMap<>();
		this.metrics.guards().snapshot().forEach((guard, count) -> counts.put(guard.tag(), count));
		return counts;
	}

	private static String readVersion() {
		try (InputStream in = KhamsinEndpoint.class.getResourceAsStream("/META-INF/khamsin/version.properties")) {
			Properties properties = new Properties();
			if (in != null) {
				properties.load(in);
			}
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * What {@code /actuator/khamsin} answers.
	 *
	 * @param version khamsin's version
	 * @param server the server, or {@code null} when khamsin does not serve this context
	 * @param protocols the protocols its listeners offer, none when it is not running
	 * @param reactors each reactor's connections, requests, bytes and pending tasks
	 * @param totals the sum over every reactor since start
	 * @param guards the guards' settings and counts, or {@code null} without a server
	 * @param tls the TLS of its listeners, or {@code null} without a server
	 * @param quic the QUIC connections and request streams of each reactor, or {@code null} when no listener serves
	 * HTTP/3
	 * @param egress the egress modes of its listeners
	 * @param fileBodies how many file bodies left by each way, and why, since start
	 * @param metrics what the engine records
	 */
	public record KhamsinDescriptor(String version, ServerDescriptor server, List<String> protocols,
			List<ReactorSnapshot> reactors, ReactorSnapshot totals, GuardsDescriptor guards, TlsDescriptor tls,
			QuicDescriptor quic, List<EgressMode> egress, List<FileBodies> fileBodies, MetricsDescriptor metrics) {

	}

	/**
	 * The file bodies that left one way for one reason.
	 *
	 * @param path the way they left: {@code sendfile} (by the kernel) or {@code userspace} (through pooled buffers)
	 * @param reason why: {@code plain-connection}, {@code tls-in-userspace}, {@code protocol-frames} or
	 * {@code page-cache-copy}
	 * @param count how many since start
	 */
	public record FileBodies(String path, String reason, long count) {

	}

	/**
	 * The server.
	 *
	 * @param running whether it is started
	 * @param port its port
	 * @param transport the transport it runs on
	 * @param transportFallbackReason why a better transport was not used, or {@code null}
	 * @param listener the listener mode in force
	 * @param reactors the number of reactors configured
	 * @param listeners what each listener offers
	 */
	public record ServerDescriptor(boolean running, int port, String transport, String transportFallbackReason,
			String listener, int reactors, List<ListenerDescriptor> listeners) {

	}

	/**
	 * A listener.
	 *
	 * @param address the address it listens on
	 * @param port its port
	 * @param sockets how many sockets it bound
	 * @param protocols the protocols it offers, by their ALPN names
	 * @param tls its TLS provider, or {@code none}
	 * @param boundSockets each of its sockets
	 */
	public record ListenerDescriptor(String address, int port, int sockets, List<String> protocols, String tls,
			List<SocketDescriptor> boundSockets) {

		static ListenerDescriptor of(ListenerInfo listener) {
			return new ListenerDescriptor(listener.address().getAddress().getHostAddress(), listener.address().getPort(),
					listener.sockets(), listener.protocols(), listener.tls(),
					listener.boundSockets().stream().map(SocketDescriptor::of).toList());
		}

	}

	/**
	 * A socket of a listener.
	 *
	 * @param address the address it is bound to
	 * @param port its port
	 * @param type {@code tcp} (listening) or {@code udp} (QUIC)
	 * @param transport the I/O transport it runs on
	 * @param reactor the reactor that reads it, as {@code reactors} names it
	 */
	public record SocketDescriptor(String address, int port, String type, String transport, String reactor) {

		static SocketDescriptor of(ListenerSocket socket) {
			return new SocketDescriptor(socket.localAddress().getAddress().getHostAddress(),
					socket.localAddress().getPort(), socket.type(), socket.transport(), socket.reactor());
		}

	}

	/**
	 * QUIC, read from the running server.
	 *
	 * @param reactors each running reactor's HTTP/3 connections and request streams, as {@code reactors} names it
	 * @param totals the sum over every reactor since start
	 */
	public record QuicDescriptor(List<QuicSnapshot> reactors, QuicSnapshot totals) {

		static QuicDescriptor of(List<ListenerInfo> listeners, KhamsinMetrics metrics) {
			if (listeners.stream().noneMatch(ListenerInfo::udp)) {
				return null;
			}
			return new QuicDescriptor(metrics.quic(), metrics.quicTotals());
		}

	}

	/**
	 * The guards.
	 *
	 * @param settings each guard's limit or timeout
	 * @param events how many times each guard was enforced
	 */
	public record GuardsDescriptor(Map<String, Object> settings, Map<String, Long> events) {

	}

	/**
	 * TLS, read from the running server.
	 *
	 * @param provider the TLS providers of the listeners that serve TLS, or {@code none}
	 * @param reason which listeners serve TLS and why that provider runs, or why none serves TLS
	 * @param protocols the TLS versions offered
	 * @param alpn the application protocols offered by ALPN, in order
	 * @param clientAuth whether clients present certificates: {@code none}, {@code want} or {@code need}
	 * @param certificates the certificate each identity serves now (after any reload)
	 * @param handshakes the handshakes since start
	 */
	public record TlsDescriptor(String provider, String reason, List<String> protocols, List<String> alpn,
			String clientAuth, List<CertificateDescriptor> certificates, HandshakesDescriptor handshakes) {

		static TlsDescriptor of(List<ListenerInfo> listeners, TlsContexts contexts, TlsFigures figures) {
			List<ListenerInfo> secure = listeners.stream().filter(ListenerInfo::secure).toList();
			if (secure.isEmpty() || contexts == null) {
				return new TlsDescriptor(ListenerInfo.NO_TLS, listeners.isEmpty() ? "the server is not running"
						: "no listener serves TLS", List.of(), List.of(), null, List.of(), null);
			}
			String ports = String.join(", ",
					secure.stream().map((listener) -> Integer.toString(listener.address().getPort())).toList());
			TlsConfig config = contexts.config();
			List<CertificateDescriptor> certificates = new ArrayList<>();
			contexts.materials().forEach((name, material) -> certificates.add(CertificateDescriptor.of(name, material)));
			certificates.sort(Comparator.comparing(CertificateDescriptor::serverName,
					Comparator.nullsFirst(Comparator.naturalOrder())));
			return new TlsDescriptor(contexts.providerName(),
					"served on port(s) " + ports + "; " + contexts.providerReason(), config.protocols(),
					contexts.alpnProtocols(), config.clientAuth().name().toLowerCase(Locale.ROOT), certificates,
					HandshakesDescriptor.of(figures.totals()));
		}

	}

	/**
	 * The certificate one identity serves.
	 *
	 * @param serverName the SNI host name it serves, or {@code null} for the default identity
	 * @param source where it comes from, such as {@code SSL bundle 'web'}
	 * @param subject the certificate's subject
	 * @param issuer the certificate's issuer
	 * @param notAfter when it expires
	 */
	public record CertificateDescriptor(String serverName, String source, String subject, String issuer,
			Instant notAfter) {

		static CertificateDescriptor of(String serverName, TlsMaterial material) {
			List<X509Certificate> chain = material.certificateChain();
			if (chain.isEmpty()) {
				return new CertificateDescriptor(serverName, material.description(), null, null, null);
			}
			X509Certificate leaf = chain.get(0);
			return new CertificateDescriptor(serverName, material.description(),
					leaf.getSubjectX500Principal().getName(), leaf.getIssuerX500Principal().getName(),
					leaf.getNotAfter().toInstant());
		}

	}

	/**
	 * TLS handshakes since start, over every reactor.
	 *
	 * @param full handshakes that made a new session
	 * @param resumed handshakes that resumed a session (a ticket or a session id)
	 * @param failed handshakes that failed, by reason
	 * @param closedBeforeHello connections that closed before they sent a byte (health checks, port scans): no
	 * handshake, so neither made nor failed
	 */
	public record HandshakesDescriptor(long full, long resumed, Map<String, Long> failed, long closedBeforeHello) {

		static HandshakesDescriptor of(HandshakeCounts counts) {
			Map<String, Long> failed = new LinkedHashMap<>();
			counts.failures().forEach((reason, count) -> failed.put(reason.tag(), count));
			return new HandshakesDescriptor(counts.full(), counts.resumed(), failed, counts.closedBeforeHello());
		}

	}

	/**
	 * What the engine records.
	 *
	 * @param enabled whether latencies, requests and bytes are recorded
	 * @param maxRoutes the most distinct routes tagged
	 * @param interval the latency interval
	 */
	public record MetricsDescriptor(boolean enabled, int maxRoutes, Duration interval) {

	}

}
