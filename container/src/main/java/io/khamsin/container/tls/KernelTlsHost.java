package io.khamsin.container.tls;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What this machine offers kernel TLS: whether the kernel can attach the {@code tls} upper layer protocol to a TCP
 * socket, and whether the interface a connection leaves by seals TLS records itself (TLS TX offload).
 */
interface KernelTlsHost {

	/**
	 * Why the kernel cannot take TLS connections over, or {@code null} when it can: its {@code tls} ULP is loaded,
	 * or its module is there to be loaded on first use.
	 * @return the reason, or {@code null}
	 */
	String ulpRefusal();

	/**
	 * Why the interface that holds a local address does not seal TLS records itself, or {@code null} when it does.
	 * Called on a connection's event loop: it answers from what it learnt at start.
	 * @param local the connection's local address
	 * @return the reason, or {@code null}
	 */
	String offloadRefusal(InetAddress local);

	/** This machine, as {@code /proc}, {@code /lib/modules} and {@code ethtool -k} show it. */
	final class Machine implements KernelTlsHost {

		/** The kernel's list of the upper layer protocols it can attach to a TCP socket now. */
		static final Path AVAILABLE_ULPS = Path.of("/proc/sys/net/ipv4/tcp_available_ulp");

		/** The feature {@code ethtool -k} names TLS TX offload by. */
		static final String OFFLOAD_FEATURE = "tls-hw-tx-offload";

		/** What the maps hold for an interface with TLS TX offload (they hold no {@code null}). */
		private static final String OFFLOADS = "";

		private final String ulpRefusal;

		/** Each interface's refusal, {@link #OFFLOADS} for one that seals TLS records itself; read at start. */
		private final Map<String, String> offloadRefusals;

		private final Map<InetAddress, String> byAddress = new ConcurrentHashMap<>();

		private final boolean readOffloads;

		/**
		 * Read what the kernel offers now.
		 * @param readOffloads whether to read each interface's offload features ({@code ethtool -k}, one process
		 * per interface), needed only by {@code auto}
		 */
		Machine(boolean readOffloads) {
			this.ulpRefusal = ulpRefusal(AVAILABLE_ULPS, Path.of("/lib/modules", System.getProperty("os.version"),
					"kernel", "net", "tls"));
			this.readOffloads = readOffloads;
			this.offloadRefusals = (readOffloads && this.ulpRefusal == null) ? readInterfaces() : Map.of();
		}

		static String ulpRefusal(Path availableUlps, Path moduleDirectory) {
			String available;
			try {
				available = Files.readString(availableUlps).trim();
			}
			catch (IOException | RuntimeException ex) {
				return availableUlps + " cannot be read (" + ex.getMessage() + "): this is no Linux kernel with TCP ULPs";
			}
			if (List.of(available.split("\\s+")).contains("tls")) {
				return null;
			}
			if (Files.isDirectory(moduleDirectory)) {
				// The kernel loads the module when a socket first asks for the ULP.
				return null;
			}
			return "the kernel offers no tls ULP: " + availableUlps + " lists '" + available + "' and there is no "
					+ moduleDirectory + " to load it from (load it with 'modprobe tls', or use a kernel built with "
					+ "CONFIG_TLS)";
		}

		private static Map<String, String> readInterfaces() {
			Map<String, String> refusals = new HashMap<>();
			try {
				for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
					String refusal = nic.isLoopback() ? "loopback (" + nic.getName() + ") seals nothing itself"
							: ethtool(nic.getName());
					refusals.put(nic.getName(), (refusal != null) ? refusal : OFFLOADS);
				}
			}
			catch (SocketException ex) {
				// Every address then reads as one of an unknown interface.
			}
			return Map.copyOf(refusals);
		}

		/** The refusal of one interface from {@code ethtool -k}: {@code null} when TLS TX offload is on. */
		static String ethtool(String nic) {
			Process process;
			try {
				process = new ProcessBuilder("ethtool", "-k", nic).redirectErrorStream(true).start();
			}
			catch (IOException ex) {
				return "ethtool is not installed, so the TLS offload of " + nic + " cannot be read";
			}
			try {
				String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
				if (!process.waitFor(5, TimeUnit.SECONDS)) {
					process.destroyForcibly();
					return "ethtool -k " + nic + " did not answer within 5 s";
				}
				return offloadRefusal(nic, output);
			}
			catch (IOException ex) {
				return "ethtool -k " + nic + " failed: " + ex.getMessage();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return "interrupted while reading the TLS offload of " + nic;
			}
		}

		/** The refusal read from {@code ethtool -k} output, e.g. {@code tls-hw-tx-offload: off [fixed]}. */
		static String offloadRefusal(String nic, String ethtoolOutput) {
			for (String line : ethtoolOutput.split("\n")) {
				String trimmed = line.trim();
				if (trimmed.startsWith(OFFLOAD_FEATURE + ":")) {
					String state = trimmed.substring(OFFLOAD_FEATURE.length() + 1).trim();
					return state.startsWith("on") ? null
							: nic + " has no TLS TX offload (" + OFFLOAD_FEATURE + ": " + state + ")";
				}
			}
			return nic + " has no TLS TX offload (ethtool -k does not list " + OFFLOAD_FEATURE + ")";
		}

		@Override
		public String ulpRefusal() {
			return this.ulpRefusal;
		}

		@Override
		public String offloadRefusal(InetAddress local) {
			if (!this.readOffloads) {
				return "the interfaces' TLS offload was not read";
			}
			String refusal = this.byAddress.computeIfAbsent(local, this::interfaceRefusal);
			return OFFLOADS.equals(refusal) ? null : refusal;
		}

		private String interfaceRefusal(InetAddress local) {
			try {
				NetworkInterface nic = NetworkInterface.getByInetAddress(local);
				if (nic == null) {
					return "no interface holds " + local.getHostAddress();
				}
				String refusal = this.offloadRefusals.get(nic.getName());
				return (refusal != null) ? refusal
						: nic.getName() + " appeared after the start, and its TLS offload was not read";
			}
			catch (SocketException ex) {
				return "the interface of " + local.getHostAddress() + " cannot be found: " + ex.getMessage();
			}
		}

	}

}
