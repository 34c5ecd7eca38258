package io.khamsin.container.http3;

import java.util.List;

import javax.net.ssl.SSLEngine;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http3.DefaultHttp3SettingsFrame;
import io.netty.handler.codec.http3.Http3ServerConnectionHandler;
import io.netty.handler.codec.http3.Http3SettingsFrame;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicTransportError;
import org.springframework.http.server.reactive.SslInfo;

import io.khamsin.container.egress.TlsSealing;
import io.khamsin.container.engine.ServerContext;
import io.khamsin.container.exchange.ExchangeDispatcher;
import io.khamsin.container.tls.TlsSessionInfo;
import io.khamsin.container.transport.ConnectionSecurity;
import io.khamsin.container.transport.ProtocolInitializer;
import io.khamsin.container.transport.ProtocolSelector;

/**
 * Sets up a QUIC connection for HTTP/3 once its handshake has begun: Netty's HTTP/3 connection handler (control and
 * QPACK streams, {@code SETTINGS}) whose request streams each get an {@link Http3StreamHandler} that carries the
 * stream's exchange to the server's {@link ExchangeDispatcher}, and the connection's own handler
 * ({@link Http3Connection}). The fixed responses are built as HTTP/3 field sections once, here.
 */
public final class Http3Initializer implements ProtocolInitializer {

	/** The protocol it sets up, by its ALPN name (RFC 9114, section 3.1). */
	public static final String PROTOCOL = "h3";

	/** What runs QUIC's TLS, as the listener describes it. */
	public static final String TLS = "QUIC (quiche, BoringSSL)";

	/** The name of Netty's HTTP/3 connection handler in a QUIC connection's pipeline. */
	public static final String CODEC = "h3-codec";

	/** The name of the connection's handler in the pipeline. */
	public static final String CONNECTION = "h3-connection";

	/**
	 * What QUIC established under HTTP/3: always TLS 1.3 ({@code https}), its session read from the connection's
	 * engine, its records sealed in the JVM's process (quiche).
	 */
	static final ConnectionSecurity QUIC = new ConnectionSecurity() {

		@Override
		public String scheme() {
			return "https";
		}

		@Override
		public SslInfo sslInfo(Channel channel) {
			SSLEngine engine = ((QuicChannel) channel).sslEngine();
			return (engine != null) ? TlsSessionInfo.of(engine.getSession()) : null;
		}

		@Override
		public TlsSealing sealing(Channel channel) {
			return TlsSealing.USERSPACE;
		}

		@Override
		public String toString() {
			return "QUIC";
		}

	};

	private final ServerContext context;

	private final ExchangeDispatcher dispatcher;

	private final Http3FixedResponses fixedResponses;

	private final Http3Config config;

	/**
	 * Create the HTTP/3 initializer of a server.
	 * @param context what the server's connections share
	 * @param dispatcher the server's exchange stage
	 * @param config the server's HTTP/3 settings
	 */
	public Http3Initializer(ServerContext context, ExchangeDispatcher dispatcher, Http3Config config) {
		this.context = context;
		this.dispatcher = dispatcher;
		this.config = config;
		this.fixedResponses = Http3FixedResponses.encode(dispatcher.fixedResponses());
	}

	@Override
	public String protocol() {
		return PROTOCOL;
	}

	/**
	 * How a QUIC connection comes to speak HTTP/3: at once, as QUIC's ALPN offers nothing else.
	 * @return the selector of the QUIC listener
	 */
	public ProtocolSelector selector() {
		return new ProtocolSelector() {

			@Override
			public List<String> protocols() {
				return List.of(PROTOCOL);
			}

			@Override
			public String tls() {
				return TLS;
			}

			@Override
			public void select(Channel channel) {
				initialize(channel, QUIC);
			}

			/**
			 * A QUIC connection is refused with {@code CONNECTION_REFUSED} (RFC 9000, section 20.1): closed without a
			 * word, a connection whose handshake the client already took for done would leave the requests it opened
			 * on it in doubt (without a GOAWAY every stream may have been processed, RFC 9114, section 5.2).
			 */
			@Override
			public void refuse(Channel channel) {
				((QuicChannel) channel).close(false, (int) QuicTransportError.CONNECTION_REFUSED.code(),
						Unpooled.EMPTY_BUFFER);
			}

		};
	}

	@Override
	public void initialize(Channel channel, ConnectionSecurity security) {
		Http3Connection connection = new Http3Connection(security, this.context.metrics().reactor(channel.eventLoop()),
				this.context.metrics().tls().reactor(channel.eventLoop()), this.context.guards(), this.config);
		Http3Streams streams = new Http3Streams(connection, this.dispatcher, this.fixedResponses,
				this.context.settings(), this.context.guards());
		Http3SettingsFrame settings = new DefaultHttp3SettingsFrame();
		// The largest request head taken, as on HTTP/1.1 and HTTP/2 (RFC 9114, section 7.2.4.1).
		settings.put(Http3SettingsFrame.HTTP3_SETTINGS_MAX_FIELD_SECTION_SIZE,
				(long) this.context.settings().maxHeaderSize());
		channel.pipeline()
			.addLast(CODEC, new Http3ServerConnectionHandler(streams, null, null, settings, true))
			.addLast(CONNECTION, connection);
	}

}
