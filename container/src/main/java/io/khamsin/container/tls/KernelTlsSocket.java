package io.khamsin.container.tls;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.unix.RawUnixChannelOption;
import io.netty.channel.unix.UnixChannel;

import io.khamsin.container.ktls.CryptoInfo;
import io.khamsin.container.ktls.TrafficKeys;

/**
 * Hands a connection's sending to the kernel by its socket options, through Netty's {@link RawUnixChannelOption}
 * on epoll and io_uring channels: {@code TCP_ULP} {@code "tls"} attaches the kernel's TLS layer, then
 * {@code SOL_TLS}/{@code TLS_TX} gives it the keys and the next record's sequence number ({@link CryptoInfo}).
 * A socket with the layer attached and no keys sends what it is given unchanged, so a refused {@code TLS_TX}
 * leaves the connection as it was.
 */
final class KernelTlsSocket implements KernelTlsSwitch {

	static final KernelTlsSocket INSTANCE = new KernelTlsSocket();

	private static final byte[] ULP = "tls".getBytes(StandardCharsets.US_ASCII);

	private KernelTlsSocket() {
	}

	@Override
	public String engage(Channel channel, TrafficKeys keys, long sequence) {
		if (!(channel instanceof UnixChannel)) {
			return "the connection runs on " + channel.getClass().getSimpleName()
					+ ", which cannot set the kernel's TLS socket options (epoll and io_uring can)";
		}
		try {
			if (!channel.config().setOption(
					new RawUnixChannelOption("TCP_ULP", CryptoInfo.IPPROTO_TCP, CryptoInfo.TCP_ULP, ULP.length),
					ByteBuffer.wrap(ULP))) {
				return "the connection's transport does not take raw socket options";
			}
		}
		catch (ChannelException ex) {
			return "the kernel refused the tls upper layer protocol (" + ex.getMessage()
					+ "): its tls module is not loaded, or the socket is not an established TCP connection";
		}
		byte[] info = CryptoInfo.tls13(keys, sequence);
		try {
			channel.config().setOption(new RawUnixChannelOption("TLS_TX", CryptoInfo.SOL_TLS, CryptoInfo.TLS_TX,
					info.length), ByteBuffer.wrap(info));
			return null;
		}
		catch (ChannelException ex) {
			return "the kernel refused the sending keys for " + keys.cipher().suite() + " (" + ex.getMessage() + ")";
		}
		finally {
			Arrays.fill(info, (byte) 0);
		}
	}

}
