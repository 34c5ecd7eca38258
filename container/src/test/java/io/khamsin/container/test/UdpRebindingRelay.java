package io.khamsin.container.test;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;

/**
 * A UDP relay that plays a NAT which rebinds: a client sends to the relay's port, and the relay forwards each of its
 * datagrams to the server from one of several local sockets, the one chosen last by {@link #rebind(int)}, so that the
 * server sees the client's address change mid-connection; whatever the server sends to any of those sockets goes back
 * to the client. One thread per socket. It notes the longest datagram the client sent.
 */
public final class UdpRebindingRelay implements AutoCloseable {

	private final DatagramSocket front;

	private final List<DatagramSocket> upstream = new ArrayList<>();

	private final InetSocketAddress server;

	private final List<Thread> threads = new ArrayList<>();

	private volatile int current;

	private volatile SocketAddress client;

	private volatile int largestFromClient;

	/**
	 * Start a relay in front of a server.
	 * @param server the server's address
	 * @param sockets how many source ports the relay may send from
	 * @throws SocketException if a socket cannot be bound
	 */
	public UdpRebindingRelay(InetSocketAddress server, int sockets) throws SocketException {
		this.server = server;
		InetAddress loopback = InetAddress.getLoopbackAddress();
		this.front = new DatagramSocket(new InetSocketAddress(loopback, 0));
		for (int i = 0; i < sockets; i++) {
			this.upstream.add(new DatagramSocket(new InetSocketAddress(loopback, 0)));
		}
		start("relay-front", () -> pump(this.front, true));
		for (DatagramSocket socket : this.upstream) {
			start("relay-upstream-" + socket.getLocalPort(), () -> pump(socket, false));
		}
	}

	private void start(String name, Runnable pump) {
		Thread thread = new Thread(pump, name);
		thread.setDaemon(true);
		thread.start();
		this.threads.add(thread);
	}

	/** @return the port the client sends to */
	public int port() {
		return this.front.getLocalPort();
	}

	/**
	 * Send the client's next datagrams from another source port.
	 * @param socket the index of the upstream socket
	 * @return the new source port
	 */
	public int rebind(int socket) {
		this.current = socket;
		return this.upstream.get(socket).getLocalPort();
	}

	/** @return the length of the longest datagram the client sent so far */
	public int largestFromClient() {
		return this.largestFromClient;
	}

	private void pump(DatagramSocket from, boolean fromClient) {
		byte[] buffer = new byte[65_536];
		DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
		while (!from.isClosed()) {
			try {
				packet.setData(buffer);
				from.receive(packet);
				if (fromClient) {
					this.client = packet.getSocketAddress();
					this.largestFromClient = Math.max(this.largestFromClient, packet.getLength());
					this.upstream.get(this.current)
						.send(new DatagramPacket(buffer, packet.getOffset(), packet.getLength(), this.server));
				}
				else if (this.client != null) {
					this.front.send(new DatagramPacket(buffer, packet.getOffset(), packet.getLength(), this.client));
				}
			}
			catch (IOException ex) {
				// Closed, or a datagram that could not be sent: a lost packet, which QUIC recovers.
			}
		}
	}

	@Override
	public void close() {
		this.front.close();
		this.upstream.forEach(DatagramSocket::close);
	}

}
