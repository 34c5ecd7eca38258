package io.khamsin.benchmark.scenario;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.khamsin.benchmark.load.LoadGenerator;
import io.khamsin.benchmark.os.CoreKeeper;
import io.khamsin.benchmark.target.TargetProcess;
import io.khamsin.benchmark.target.TargetSpec;
import io.khamsin.benchmark.target.TlsFiles;
import io.khamsin.benchmark.target.Wire;

/**
 * What a scenario works with: the settings, the load generator, wrk, the display and where files go.
 *
 * @param settings durations and cores
 * @param generator the open-loop generator (this process runs on the load core)
 * @param wrk the closed-loop reference
 * @param progress the display
 * @param runDir the results directory of this run
 * @param filesDir the download files
 * @param jvmFlags the JVM flags every JVM target gets
 * @param ports hands out a port per launch
 * @param coreKeeper keeps the server core awake between requests
 * @param certificate the certificate TLS targets serve, made on first use
 */
public record RunContext(Settings settings, LoadGenerator generator, Wrk wrk, Progress progress, Path runDir,
		Path filesDir, List<String> jvmFlags, Ports ports, CoreKeeper coreKeeper, Certificate certificate) {

	/** A context without TLS targets' certificate, made in {@code <filesDir>/tls} when first asked for. */
	public RunContext(Settings settings, LoadGenerator generator, Wrk wrk, Progress progress, Path runDir,
			Path filesDir, List<String> jvmFlags, Ports ports, CoreKeeper coreKeeper) {
		this(settings, generator, wrk, progress, runDir, filesDir, jvmFlags, ports, coreKeeper,
				new Certificate(filesDir.resolve("tls")));
	}

	/** Launch {@code target} in cleartext HTTP/1.1, pinned to the server core. */
	public TargetProcess launch(TargetSpec target, List<String> extraJvmFlags) {
		return launch(target, Wire.HTTP1, extraJvmFlags);
	}

	/**
	 * Launch {@code target} to speak {@code wire}, pinned to the server core, with {@code extraJvmFlags} after the
	 * common ones.
	 */
	public TargetProcess launch(TargetSpec target, Wire wire, List<String> extraJvmFlags) {
		List<String> flags = new ArrayList<>(this.jvmFlags);
		flags.addAll(extraJvmFlags);
		return TargetProcess.start(target, new TargetSpec.Launch(this.ports.next(), this.filesDir,
				this.runDir.resolve("targets"), flags, wire, wire.tls() ? this.certificate.files() : null),
				this.settings.serverCore());
	}

	/** The run's certificate for TLS targets, made once, on first use (the download files' directory holds it). */
	public static final class Certificate {

		private final Path dir;

		private TlsFiles files;

		Certificate(Path dir) {
			this.dir = dir;
		}

		public synchronized TlsFiles files() {
			if (this.files == null) {
				this.files = TlsFiles.generate(this.dir);
			}
			return this.files;
		}

	}

	/**
	 * Hands out ports from 18100 up (from {@code KHAMSIN_BENCH_FIRST_PORT} when set, so that two runs on one machine
	 * keep apart), one per launch, so that no launch meets a socket of the previous one, skipping a port something
	 * else holds on TCP or UDP (a run once lost a target to a port taken by another program).
	 */
	public static final class Ports {

		private int next = Integer.parseInt(System.getenv().getOrDefault("KHAMSIN_BENCH_FIRST_PORT", "18100"));

		public synchronized int next() {
			while (!free(this.next)) {
				this.next++;
			}
			return this.next++;
		}

		private static boolean free(int port) {
			InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
			try (ServerSocket tcp = new ServerSocket(); DatagramSocket udp = new DatagramSocket(null)) {
				tcp.bind(address);
				udp.bind(address);
				return true;
			}
			catch (IOException ex) {
				return false;
			}
		}

	}

}
