package io.khamsin.benchmark.target;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * How to start one target.
 *
 * @param name the target's stable name (khamsin, reactor-netty, tomcat, jetty, netty-raw, vertx, nginx)
 * @param jvm whether it is a JVM (then it gets the common JVM flags, and the JVM probes apply)
 * @param command the command for a launch (without the taskset prefix)
 * @param description what it is, for the report
 * @param classpath what a JVM target runs on (its jars name the versions in env.json), empty for others
 * @param scenarios the only scenarios it is measured in, or empty for every scenario
 * @param transport the I/O transport it must be seen running on before it is measured (an
 * {@code io.khamsin.benchmark.os.TransportProbe} name), or {@code null} when whichever it picks is its own
 * @param wires what it can be launched to speak: a scenario on another wire does not apply to it
 */
public record TargetSpec(String name, boolean jvm, Function<Launch, List<String>> command, String description,
		String classpath, Set<String> scenarios, String transport, Set<Wire> wires) {

	public TargetSpec {
		scenarios = Set.copyOf(scenarios);
		wires = Set.copyOf(wires);
	}

	/** A target that speaks cleartext HTTP/1.1 only and runs on whichever transport it picks. */
	public TargetSpec(String name, boolean jvm, Function<Launch, List<String>> command, String description,
			String classpath, Set<String> scenarios) {
		this(name, jvm, command, description, classpath, scenarios, null, Set.of(Wire.HTTP1));
	}

	/** @return whether this target is measured in the scenario called {@code scenario} */
	public boolean runsIn(String scenario) {
		return this.scenarios.isEmpty() || this.scenarios.contains(scenario);
	}

	/**
	 * One launch of a target.
	 *
	 * @param port the port to listen on (127.0.0.1)
	 * @param filesDir the directory of the download files
	 * @param runDir a directory for the target's own files (logs, nginx configuration)
	 * @param jvmFlags the JVM flags every JVM target gets in this launch
	 * @param wire what it speaks on its port
	 * @param tls the certificate it serves on a TLS wire ({@code null} for cleartext)
	 */
	public record Launch(int port, Path filesDir, Path runDir, List<String> jvmFlags, Wire wire, TlsFiles tls) {

		public Launch {
			if (wire.tls() && tls == null) {
				throw new IllegalArgumentException("a launch on " + wire + " needs a certificate");
			}
		}

		/** A launch in cleartext HTTP/1.1. */
		public Launch(int port, Path filesDir, Path runDir, List<String> jvmFlags) {
			this(port, filesDir, runDir, jvmFlags, Wire.HTTP1, null);
		}

	}

}
