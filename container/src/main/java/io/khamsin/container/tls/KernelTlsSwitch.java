package io.khamsin.container.tls;

import io.netty.channel.Channel;

import io.khamsin.container.ktls.TrafficKeys;

/**
 * Hands a connection's sending to the kernel: after it, what the channel writes is plaintext, and the kernel seals
 * it into TLS records with the keys and from the sequence number it was given.
 */
@FunctionalInterface
interface KernelTlsSwitch {

	/**
	 * Hand over a connection's sending; called on its event loop once everything sealed in user space has been
	 * written to the socket.
	 * @param channel the connection
	 * @param keys its sending keys
	 * @param sequence the sequence number of the next record it sends
	 * @return {@code null} if the kernel now seals what the channel writes, else why not (the connection then stays
	 * in user space, unchanged)
	 */
	String engage(Channel channel, TrafficKeys keys, long sequence);

}
