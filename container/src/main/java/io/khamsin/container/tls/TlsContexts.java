package io.khamsin.container.tls;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

import io.netty.handler.ssl.SslContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.metrics.TlsFigures;

/**
 * The one place where TLS contexts are made: one Netty {@link SslContext} per identity of a {@link TlsConfig}
 * (the default and one per SNI host name), on the implementation chosen once here (BoringSSL when it loads, else
 * the JDK; under {@code auto}, the JDK for an identity whose key BoringSSL cannot sign with, said at start), each
 * proved by a handshake in memory before it serves, with session ticket keys of its own. {@link #update}
 * rebuilds one identity's context and swaps it in atomically: connections that arrive afterwards get it, open ones
 * keep the one they started with.
 *
 * <p>From a plain {@code main}, with a development certificate:
 *
 * <pre class="code">
 * TlsContexts contexts = TlsContexts.build(TlsConfig.builder(DevelopmentCertificate.create().material()).build());
 * TlsHandlers tls = new TlsHandlers(contexts, TlsFigures.create());
 * // in the ChannelInitializer: channel.pipeline().addLast(TlsHandlers.DETECTOR, tls.newHandler(channel));
 * </pre>
 */
public final class TlsContexts {

	private static final Logger logger = LoggerFactory.getLogger(TlsContexts.class);

	private final TlsConfig config;

	private final ResolvedProvider provider;

	private final TlsContextFactory factory;

	private final TicketKeyRotation ticketKeyRotation;

	private final AlpnOffer alpnOffer;

	private final KernelTlsPolicy kernelTls;

	private final AtomicReference<Selection> selection = new AtomicReference<>();

	private final List<BiConsumer<String, TlsMaterial>> updateListeners = new CopyOnWriteArrayList<>();

	private TlsContexts(TlsConfig config, ResolvedProvider provider, LongSupplier clock) {
		this.config = config;
		this.provider = provider;
		this.factory = new TlsContextFactory(config, provider);
		this.ticketKeyRotation = new TicketKeyRotation(config.ticketKeyRotation(), clock);
		this.alpnOffer = new AlpnOffer(config.alpnProtocols());
		this.kernelTls = KernelTlsPolicy.of(config);
		logger.info("khamsin kernel TLS: {}", this.kernelTls.describe());
		Map<String, TlsIdentity> named = new HashMap<>();
		config.serverNames().forEach((name, material) -> named.put(name, this.factory.create(material)));
		this.selection.set(new Selection(this.factory.create(config.material()), Map.copyOf(named)));
		this.selection.get().identities().forEach((identity) -> {
			if (identity.jdkReason() != null) {
				logger.info("khamsin serves {} on {} ({})", identity.material().description(), identity.providerName(),
						identity.jdkReason());
			}
		});
	}

	/**
	 * Build every context of a configuration, failing on the first identity that cannot serve.
	 * @param config the configuration
	 * @return the contexts
	 * @throws IllegalStateException when BoringSSL was required and does not load or cannot sign with an identity's
	 * key, or an identity holds no key, a key that is not its certificate's, a suite no implementation knows, or
	 * material the implementation refuses
	 */
	public static TlsContexts build(TlsConfig config) {
		return build(config, System::nanoTime);
	}

	static TlsContexts build(TlsConfig config, LongSupplier clock) {
		if (config == null) {
			throw new IllegalArgumentException("config must not be null");
		}
		ResolvedProvider provider = ResolvedProvider.resolve(config.provider());
		if (provider.fallbackReason() != null) {
			logger.info("khamsin serves TLS on the {} ({})", provider.name(), provider.fallbackReason());
		}
		return new TlsContexts(config, provider, clock);
	}

	/**
	 * The context for the host name a client sent: its own identity's, a wildcard's ({@code *.example.com} for
	 * {@code api.example.com}), else the default.
	 * @param hostName the SNI host name, or {@code null} when the client sent none
	 * @return the context
	 */
	public SslContext select(String hostName) {
		return this.selection.get().select(hostName);
	}

	/**
	 * The identity that serves a host name, for log lines: its configured name, never the client's own text.
	 * @param hostName the SNI host name, or {@code null}
	 * @return the configured name (a wildcard's too), or {@code null} for the default identity
	 */
	String identityName(String hostName) {
		return this.selection.get().nameOf(hostName);
	}

	/**
	 * Replace the material of one identity: the default ({@code serverName} {@code null}) or a host name's, which
	 * may be new. The context is built before it is swapped in, so a bad material leaves the old one serving; material
	 * the identity serves already (the same files written again) leaves the identity and its sessions as they are.
	 * @param serverName the host name, or {@code null} for the default identity
	 * @param material the new material
	 * @throws IllegalStateException when the material cannot serve (its test handshake fails)
	 */
	public void update(String serverName, TlsMaterial material) {
		if (material == null) {
			throw new IllegalArgumentException("material must not be null");
		}
		String name = (serverName != null) ? serverName.toLowerCase(Locale.ROOT) : null;
		TlsIdentity served = this.selection.get().identity(name);
		if (served != null && UnchangedMaterial.test(served.material(), material)) {
			logger.debug("khamsin keeps serving {} for {}: the update holds the same keys, certificates and trust",
					served.material().description(), (name != null) ? "server name " + name : "the default host");
			return;
		}
		TlsIdentity identity = this.factory.create(material);
		this.selection.updateAndGet((current) -> current.with(name, identity));
		logger.info("khamsin now serves {} for {} on {}", material.description(),
				(name != null) ? "server name " + name : "the default host", identity.describeProvider());
		for (BiConsumer<String, TlsMaterial> listener : this.updateListeners) {
			listener.accept(name, material);
		}
	}

	/**
	 * Hear of every material swapped in by {@link #update}, after the swap: another listener that serves the same
	 * identities (QUIC, a kernel TLS engine) rebuilds its own context from it.
	 * @param listener called with the host name ({@code null} for the default identity) and the new material
	 */
	public void addUpdateListener(BiConsumer<String, TlsMaterial> listener) {
		if (listener == null) {
			throw new IllegalArgumentException("listener must not be null");
		}
		this.updateListeners.add(listener);
	}

	/**
	 * Replace every identity's session ticket keys once per {@link TlsConfig#ticketKeyRotation()}, on a timer of a
	 * reactor, whether or not connections arrive. The timer ends with its reactor: a server starts it when its
	 * reactors start, and its stop ends both.
	 * @param reactor the event loop that runs the timer
	 * @return the timer, to cancel it sooner
	 */
	public ScheduledFuture<?> startTicketKeyRotation(ScheduledExecutorService reactor) {
		if (reactor == null) {
			throw new IllegalArgumentException("reactor must not be null");
		}
		return this.ticketKeyRotation.start(reactor, this::rotateTicketKeys);
	}

	/** Replace every identity's session ticket keys now. */
	void rotateTicketKeys() {
		this.selection.get().identities().forEach((identity) -> identity.ticketKeys().rotate());
	}

	/**
	 * The session ticket keys of the identity a name serves, which its QUIC context shares.
	 * @param name the identity's configured name, or {@code null} for the default identity
	 * @return its keys, or {@code null} if no identity has that name
	 */
	TicketKeys ticketKeys(String name) {
		TlsIdentity identity = this.selection.get().identity(name);
		return (identity != null) ? identity.ticketKeys() : null;
	}

	TicketKeyRotation ticketKeyRotation() {
		return this.ticketKeyRotation;
	}

	/** @return which connections start on the handshake that can hand their sending to the kernel */
	KernelTlsPolicy kernelTls() {
		return this.kernelTls;
	}

	/** @return whether some connections of this listener may hand their sending to the kernel */
	public boolean kernelTlsEngages() {
		return this.kernelTls.engages();
	}

	/**
	 * What {@code khamsin.egress.ktls} does on this listener and machine, for the start log and
	 * {@code /actuator/khamsin}.
	 * @return one line
	 */
	public String kernelTlsDescription() {
		return this.kernelTls.describe();
	}

	/** @return the configuration the contexts were built from (identities as first given) */
	public TlsConfig config() {
		return this.config;
	}

	/**
	 * The material of the identity that serves a host name now: the one whose context {@link #select} gives.
	 * @param hostName the SNI host name, or {@code null}
	 * @return the material
	 */
	TlsMaterial material(String hostName) {
		Selection current = this.selection.get();
		return current.identity(current.nameOf(hostName)).material();
	}

	/** @return the material each identity serves now, keyed by host name, the default under {@code null} */
	public Map<String, TlsMaterial> materials() {
		Selection current = this.selection.get();
		Map<String, TlsMaterial> materials = new HashMap<>();
		current.named().forEach((name, identity) -> materials.put(name, identity.material()));
		materials.put(null, current.defaultIdentity().material());
		return materials;
	}

	/** @return whether BoringSSL runs the handshakes (of every identity whose key it can sign with) */
	public boolean openSsl() {
		return this.provider.openSsl();
	}

	/**
	 * The implementation that runs, for the start line and {@code /actuator/khamsin}: e.g.
	 * {@code "BoringSSL"} or {@code "JDK 17 (netty-tcnative did not load (...))"}.
	 * @return the description
	 */
	public String providerDescription() {
		return this.provider.name()
				+ ((this.provider.fallbackReason() != null) ? " (" + this.provider.fallbackReason() + ")" : "");
	}

	/** @return the implementation that runs: e.g. {@code BoringSSL} or {@code JDK 17} */
	public String providerName() {
		return this.provider.name();
	}

	/**
	 * Why this implementation runs, for the start line and {@code /actuator/khamsin}.
	 * @return e.g. {@code "netty-tcnative loaded"}, {@code "khamsin.tls.provider=jdk"} or why BoringSSL did not load
	 */
	public String providerReason() {
		String why = (this.provider.fallbackReason() != null) ? this.provider.fallbackReason()
				: switch (this.config.provider()) {
					case AUTO -> "netty-tcnative loaded";
					case OPENSSL -> "khamsin.tls.provider=openssl";
					case JDK -> "khamsin.tls.provider=jdk";
				};
		StringBuilder reason = new StringBuilder(why);
		for (TlsIdentity identity : this.selection.get().identities()) {
			if (identity.jdkReason() != null) {
				reason.append("; ").append(identity.material().description()).append(" on ")
					.append(identity.describeProvider());
			}
		}
		return reason.toString();
	}

	AlpnOffer alpnOffer() {
		return this.alpnOffer;
	}

	/** @return the application protocols offered by ALPN, in order */
	public List<String> alpnProtocols() {
		return this.config.alpnProtocols();
	}

	/**
	 * The identities in force: the default and one per host name.
	 */
	private record Selection(TlsIdentity defaultIdentity, Map<String, TlsIdentity> named) {

		SslContext select(String hostName) {
			if (hostName == null || this.named.isEmpty()) {
				return this.defaultIdentity.context();
			}
			String name = nameOf(hostName);
			return ((name != null) ? this.named.get(name) : this.defaultIdentity).context();
		}

		/** The configured name whose identity serves a host name (its own or a wildcard), or {@code null}. */
		String nameOf(String hostName) {
			if (hostName == null) {
				return null;
			}
			String name = hostName.toLowerCase(Locale.ROOT);
			if (this.named.containsKey(name)) {
				return name;
			}
			int dot = name.indexOf('.');
			String wildcard = (dot > 0) ? "*" + name.substring(dot) : null;
			return (wildcard != null && this.named.containsKey(wildcard)) ? wildcard : null;
		}

		TlsIdentity identity(String name) {
			return (name != null) ? this.named.get(name) : this.defaultIdentity;
		}

		Selection with(String name, TlsIdentity identity) {
			if (name == null) {
				return new Selection(identity, this.named);
			}
			Map<String, TlsIdentity> named = new HashMap<>(this.named);
			named.put(name, identity);
			return new Selection(this.defaultIdentity, Map.copyOf(named));
		}

		List<TlsIdentity> identities() {
			List<TlsIdentity> all = new ArrayList<>(this.named.size() + 1);
			all.add(this.defaultIdentity);
			all.addAll(this.named.values());
			return all;
		}

	}

}
