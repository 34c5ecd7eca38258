package io.khamsin.container.http2;

import java.util.List;

import io.netty.channel.Channel;

import io.khamsin.container.engine.HttpSettings;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.guard.GuardCounters;
import io.khamsin.container.metrics.ReactorMetrics;
import io.khamsin.container.transport.ListenerInfo;
import io.khamsin.container.transport.ProtocolInitializer;
import io.khamsin.container.transport.ProtocolSelector;

/**
 * How a connection to a plain listener that offers h2c comes to speak a protocol, from its first bytes
 * ({@link PrefaceDetector}): the HTTP/2 connection preface (RFC 9113, section 3.3) chooses HTTP/2 with prior
 * knowledge; a first request that asks for {@code Upgrade: h2c} and may have it (RFC 7540, section 3.2) is answered
 * {@code 101} and becomes the first stream of an HTTP/2 connection; anything else is HTTP/1.1, which never hears of
 * the detector.
 */
public final class CleartextSelector implements ProtocolSelector {

	/** The name of the detector in the pipeline, until the first bytes choose the protocol. */
	public static final String DETECTOR = "h2c-detector";

	private final ProtocolInitializer http1;

	private final Http2Initializer http2;

	private final ServerContext context;

	/**
	 * Create the selector of a plain listener.
	 * @param http1 the HTTP/1.1 initializer
	 * @param http2 the HTTP/2 initializer
	 * @param context what the server's connections share: its limits on a request head, its idle timeout, its
	 * figures and guards
	 */
	public CleartextSelector(ProtocolInitializer http1, Http2Initializer http2, ServerContext context) {
		this.http1 = http1;
		this.http2 = http2;
		this.context = context;
	}

	@Override
	public List<String> protocols() {
		return List.of(Http2Initializer.CLEARTEXT, this.http1.protocol());
	}

	@Override
	public String tls() {
		return ListenerInfo.NO_TLS;
	}

	@Override
	public void select(Channel channel) {
		channel.pipeline().addLast(DETECTOR, new PrefaceDetector(this));
	}

	ProtocolInitializer http1() {
		return this.http1;
	}

	Http2Initializer http2() {
		return this.http2;
	}

	HttpSettings settings() {
		return this.context.settings();
	}

	GuardCounters guards() {
		return this.context.guards();
	}

	ReactorMetrics reactor(Channel channel) {
		return this.context.metrics().reactor(channel.eventLoop());
	}

}
