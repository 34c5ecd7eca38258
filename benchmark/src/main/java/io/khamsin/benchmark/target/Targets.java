package io.khamsin.benchmark.target;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

import io.khamsin.benchmark.os.Tools;
import io.khamsin.benchmark.os.TransportProbe;

/**
 * The targets this machine can run, in report order. The Spring Boot targets come from the properties file that
 * {@code benchmark/bench} writes after building them ({@code <name>.classpath}, {@code <name>.main},
 * {@code <name>.source}); netty-raw and vertx run from the benchmark's own classpath; nginx is Debian's, when
 * installed.
 */
public final class Targets {

	/** Every target name, in report order. */
	public static final List<String> ALL = List.of("khamsin", "khamsin-before", "khamsin-fixed", "khamsin-no-metrics",
			"khamsin-access-log", "khamsin-page-render", "khamsin-page-fixed", "khamsin-page-shared", "reactor-netty",
			"reactor-netty-iouring", "tomcat", "jetty", "netty-raw", "vertx",
			"nginx");

	/** The Spring Boot targets: the sample app on each container. */
	public static final List<String> BOOT = List.of("khamsin", "reactor-netty", "reactor-netty-iouring", "tomcat",
			"jetty");

	/** The targets that are the khamsin target's build launched with other settings. */
	public static final List<String> KHAMSIN_VARIANTS = List.of("khamsin-fixed", "khamsin-no-metrics",
			"khamsin-access-log", "khamsin-page-render", "khamsin-page-fixed", "khamsin-page-shared");

	/**
	 * The Spring Boot arguments that give target {@code khamsin-fixed} khamsin's fixed-response fast path for
	 * {@code /plaintext}: answered without entering WebFlux, with the same bytes as the sample app's handler.
	 */
	public static final List<String> FIXED_RESPONSE_ARGS = List.of("--khamsin.fixed-responses[0].path=/plaintext",
			"--khamsin.fixed-responses[0].content-type=text/plain", "--khamsin.fixed-responses[0].body=Hello, World!");

	/**
	 * The scenarios of {@code khamsin-fixed}: those whose only route is {@code /plaintext}, over HTTP/1.1, over
	 * HTTP/2 (h2c and h2 on TLS) and over HTTP/3 (with either generator), where the fast path shows what the engine's
	 * HTTP/2 and HTTP/3 cost without WebFlux.
	 */
	public static final Set<String> FIXED_RESPONSE_SCENARIOS = Set.of("status", "cpu-fixed-rate", "new-connection",
			"h2-streams", "h2-streams-tls", "h3", "h3-ngtcp2");

	/**
	 * The Spring Boot argument that gives target {@code khamsin-no-metrics} khamsin with its own figures off: the
	 * same build, so that its CPU per request beside khamsin's is the cost of recording them.
	 */
	public static final List<String> NO_METRICS_ARGS = List.of("--khamsin.metrics.enabled=false");

	/**
	 * The scenarios of the variants that price one feature ({@code khamsin-no-metrics}, {@code khamsin-access-log}):
	 * CPU per request at a fixed rate is the figure a feature's cost shows in.
	 */
	public static final Set<String> FEATURE_COST_SCENARIOS = Set.of("cpu-fixed-rate");

	/** nginx where {@link Tools} finds it (Debian installs it in /usr/sbin), or {@code null}. */
	public static Path nginxBinary() {
		return Tools.locate("nginx").orElse(null);
	}

	private Targets() {
	}

	/**
	 * The targets available, and for the others why not.
	 * @param built the properties written by the build ({@code null}: none built)
	 * @param benchmarkClasspath the classpath of the benchmark module
	 * @param missing receives the reason for each target that is not available
	 */
	public static List<TargetSpec> available(Properties built, String benchmarkClasspath,
			Map<String, String> missing) {
		Map<String, TargetSpec> found = new LinkedHashMap<>();
		for (String name : BOOT) {
			String classpath = (built != null) ? built.getProperty(name + ".classpath") : null;
			String main = (built != null) ? built.getProperty(name + ".main") : null;
			if (classpath == null || main == null) {
				String why = (built != null) ? built.getProperty(name + ".missing") : null;
				missing.put(name, (why != null) ? why : "not built (run benchmark/bench, which builds it)");
				continue;
			}
			String source = built.getProperty(name + ".source", "sample-app");
			found.put(name, boot(name, classpath, main, source, (launch) -> List.of(), Set.of(), transportOf(name),
					wiresOf(name)));
			if (name.equals("khamsin")) {
				found.put("khamsin-fixed", boot("khamsin-fixed", classpath, main, source,
						(launch) -> FIXED_RESPONSE_ARGS, FIXED_RESPONSE_SCENARIOS, null, Set.of(Wire.values())));
				found.put("khamsin-no-metrics", boot("khamsin-no-metrics", classpath, main, source,
						(launch) -> NO_METRICS_ARGS, FEATURE_COST_SCENARIOS, null, Set.of(Wire.HTTP1)));
				found.put("khamsin-access-log", boot("khamsin-access-log", classpath, main, source,
						Targets::accessLogArgs, FEATURE_COST_SCENARIOS, null, Set.of(Wire.HTTP1)));
				PageCacheTargets.addTo(found, built, missing);
			}
		}
		String before = (built != null) ? built.getProperty("khamsin-before.classpath") : null;
		if (before != null) {
			String commit = built.getProperty("khamsin-before.commit", "another commit");
			found.put("khamsin-before", new TargetSpec("khamsin-before", true,
					boot("khamsin-before", before, built.getProperty("khamsin-before.main"),
							built.getProperty("khamsin-before.source", "sample-app"), (launch) -> List.of(), Set.of(), null,
							Set.of(Wire.values())).command(),
					"the sample app on the khamsin starter of commit " + commit + " (--baseline), to compare a change "
							+ "with what it replaced in one run",
					before, Set.of(), null, Set.of(Wire.values())));
		}
		else if (built != null && built.getProperty("khamsin-before.missing") != null) {
			missing.put("khamsin-before", built.getProperty("khamsin-before.missing"));
		}
		if (!found.containsKey("khamsin")) {
			for (String variant : KHAMSIN_VARIANTS) {
				missing.put(variant, "needs the khamsin target's build: " + missing.get("khamsin"));
			}
		}
		found.put("netty-raw", reference("netty-raw", benchmarkClasspath, "io.khamsin.benchmark.refserver.NettyRawServer",
				"minimal Netty 4.2 epoll server answering the routes directly"));
		found.put("vertx", reference("vertx", benchmarkClasspath, "io.khamsin.benchmark.refserver.VertxServer",
				"Vert.x 5 core HTTP server answering the routes directly"));
		if (nginxBinary() != null) {
			found.put("nginx", new TargetSpec("nginx", false, Targets::nginx,
					"Debian's nginx, worker_processes 1, return 200 and static files", "", Set.of(), null,
					Wire.TCP));
		}
		else {
			missing.put("nginx", "not installed (apt-get install nginx)");
		}
		List<TargetSpec> ordered = new ArrayList<>();
		for (String name : ALL) {
			if (found.containsKey(name)) {
				ordered.add(found.get(name));
			}
		}
		return ordered;
	}

	/**
	 * A target defined on the command line ({@code --variant}): a Spring Boot target launched with more arguments,
	 * measured in the same scenarios, so that the price of one setting can be read beside its base in one run.
	 * @param base the Spring Boot target it derives from (khamsin, one of its variants, khamsin-before, reactor-netty,
	 * tomcat, jetty)
	 * @param name the variant's name, which no built-in target has
	 * @param args the Spring Boot arguments added after the base's own
	 * @return the variant
	 */
	public static TargetSpec variant(TargetSpec base, String name, List<String> args) {
		if (ALL.contains(name)) {
			throw new IllegalArgumentException("variant '" + name + "' is the name of a built-in target");
		}
		if (!BOOT.contains(base.name()) && !KHAMSIN_VARIANTS.contains(base.name())
				&& !base.name().equals("khamsin-before")) {
			throw new IllegalArgumentException("variant '" + name + "': its base '" + base.name()
					+ "' is not a Spring Boot target, so it takes no Spring Boot arguments");
		}
		List<String> extra = List.copyOf(args);
		return new TargetSpec(name, true, (launch) -> {
			List<String> command = new ArrayList<>(base.command().apply(launch));
			command.addAll(extra);
			return command;
		}, base.description() + ", with " + String.join(" ", extra), base.classpath(), base.scenarios(), null,
				base.wires());
	}

	/**
	 * The arguments of target {@code khamsin-access-log}: the access log on, in the common format, appended to a
	 * file beside the download files (a temporary directory the run deletes, so the lines stay out of the results).
	 * @param launch the launch
	 * @return the Spring Boot arguments
	 */
	static List<String> accessLogArgs(TargetSpec.Launch launch) {
		Path file = launch.filesDir().resolve("access-" + launch.port() + ".log").toAbsolutePath();
		return List.of("--khamsin.access-log.enabled=true", "--khamsin.access-log.format=common",
				"--khamsin.access-log.destination=" + file);
	}

	/**
	 * @return the transport a Spring Boot target must run on: reactor-netty-iouring exists to measure Reactor Netty
	 * on io_uring, so a run on epoll would measure the other target under its name
	 */
	static String transportOf(String name) {
		return name.equals("reactor-netty-iouring") ? TransportProbe.IO_URING : null;
	}

	/**
	 * @return the wires a Spring Boot target is launched on: Tomcat and Jetty serve TLS from Boot's
	 * {@code server.ssl}, but their HTTP/2 needs modules the sample app does not bring
	 */
	static Set<Wire> wiresOf(String name) {
		return switch (name) {
			case "tomcat", "jetty" -> Set.of(Wire.HTTP1, Wire.HTTPS);
			// Reactor Netty on io_uring: its HTTP/3 server runs on a datagram channel of its own choosing.
			case "reactor-netty-iouring" -> Wire.TCP;
			default -> Set.of(Wire.values());
		};
	}

	/**
	 * The Spring Boot arguments of a launch's wire: Boot's own {@code server.ssl.*} (PEM) on TLS, and
	 * {@code server.http2.enabled} on HTTP/2 (h2c on cleartext, ALPN h2 over TLS), HTTP/3 on its wire.
	 */
	static List<String> wireArgs(TargetSpec.Launch launch) {
		List<String> args = new ArrayList<>();
		if (launch.wire().tls()) {
			args.add("--server.ssl.certificate=" + launch.tls().certificate().toAbsolutePath());
			args.add("--server.ssl.certificate-private-key=" + launch.tls().privateKey().toAbsolutePath());
		}
		if (launch.wire().http2()) {
			args.add("--server.http2.enabled=true");
		}
		if (launch.wire().http3()) {
			// khamsin serves HTTP/3 beside its TLS port; Reactor Netty's sample app turns its server into an HTTP/3
			// one through a NettyServerCustomizer (targets/boot/reactor-netty-http3), as Reactor Netty's docs show.
			args.add("--khamsin.http3.enabled=true");
			args.add("--bench.http3=true");
		}
		return args;
	}

	static TargetSpec boot(String name, String classpath, String main, String source,
			Function<TargetSpec.Launch, List<String>> extraArgs, Set<String> scenarios, String transport,
			Set<Wire> wires) {
		return new TargetSpec(name, true, (launch) -> {
			List<String> command = new ArrayList<>(List.of(javaBin()));
			command.addAll(launch.jvmFlags());
			command.addAll(List.of("-cp", classpath, main, "--server.port=" + launch.port(),
					"--server.address=127.0.0.1", "--sample.files.dir=" + launch.filesDir(),
					"--spring.main.banner-mode=off", "--server.shutdown=immediate",
					// Equal keep-alive and connection limits for every target (Tomcat's defaults are 100 and 8,192).
					"--server.tomcat.max-keep-alive-requests=-1", "--server.tomcat.max-connections=20000",
					"--khamsin.max-connections=20000"));
			command.addAll(wireArgs(launch));
			command.addAll(extraArgs.apply(launch));
			return command;
		}, "the sample app (" + source + ") on " + containerName(name), classpath, scenarios, transport, wires);
	}

	private static String containerName(String name) {
		return switch (name) {
			case "khamsin" -> "the khamsin starter";
			case "khamsin-fixed" -> "the khamsin starter, /plaintext as a fixed response (no WebFlux)";
			case "khamsin-no-metrics" -> "the khamsin starter with khamsin.metrics.enabled=false";
			case "khamsin-access-log" -> "the khamsin starter with the access log on (common format, to a file)";
			case "khamsin-page-render" -> "the khamsin starter with the page cache off: every page rendered";
			case "khamsin-page-fixed" -> "the khamsin starter, /page/1 as a fixed response of 50 KB (no WebFlux)";
			case "khamsin-page-shared" -> "the khamsin starter with Lettuce, the page cache's local tier off and "
					+ "every hit read from the shared tier on the run's redis-server";
			case "reactor-netty" -> "Spring Boot's default container, Reactor Netty (epoll, as Boot ships it)";
			case "reactor-netty-iouring" -> "Spring Boot's default container, Reactor Netty, with "
					+ "netty-transport-native-io_uring added (Reactor Netty then picks io_uring by itself)";
			case "tomcat" -> "spring-boot-starter-tomcat (reactive)";
			case "jetty" -> "spring-boot-starter-jetty (reactive)";
			default -> name;
		};
	}

	private static TargetSpec reference(String name, String classpath, String main, String description) {
		return new TargetSpec(name, true, (launch) -> {
			List<String> command = new ArrayList<>(List.of(javaBin()));
			command.addAll(launch.jvmFlags());
			command.addAll(List.of("-cp", classpath, main, Integer.toString(launch.port()),
					launch.filesDir().toString()));
			return command;
		}, description, classpath, Set.of());
	}

	static List<String> nginx(TargetSpec.Launch launch) {
		Path dir = launch.runDir().resolve("nginx-" + launch.port()).toAbsolutePath();
		try {
			Files.createDirectories(dir);
			String json = new String(Payloads.confirmation1k(), StandardCharsets.US_ASCII);
			String conf = """
					worker_processes 1;
					pid %1$s/nginx.pid;
					error_log %1$s/error.log warn;
					worker_rlimit_nofile 20000;
					events { worker_connections 19000; }
					http {
					  access_log off;
					  client_body_temp_path %1$s/body;
					  proxy_temp_path %1$s/proxy;
					  fastcgi_temp_path %1$s/fastcgi;
					  uwsgi_temp_path %1$s/uwsgi;
					  scgi_temp_path %1$s/scgi;
					  sendfile on;
					  tcp_nodelay on;
					  keepalive_requests 1000000000;
					  keepalive_timeout 75s;
					  server {
					    listen 127.0.0.1:%2$d backlog=1024%5$s;%6$s
					    location = /plaintext { default_type text/plain; return 200 "Hello, World!"; }
					    location = /json { client_body_buffer_size 16k; default_type application/json; return 200 '%3$s'; }
					    location /files/ { alias %4$s/; types { } default_type application/octet-stream; }
					  }
					}
					""".formatted(dir, launch.port(), json, launch.filesDir().toAbsolutePath(), nginxListen(launch.wire()),
					nginxTls(launch));
			Path file = dir.resolve("nginx.conf");
			Files.writeString(file, conf);
			return List.of(nginxBinary().toString(), "-p", dir.toString(), "-c", file.toString(), "-g", "daemon off;");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot write the nginx configuration into " + dir, ex);
		}
	}

	private static String nginxListen(Wire wire) {
		return (wire.tls() ? " ssl" : "") + (wire.http2() ? " http2" : "");
	}

	/**
	 * nginx's TLS settings on a TLS wire: the run's certificate, TLS 1.3 and 1.2, and resumption both ways (a
	 * shared session cache and tickets), as a production configuration has them.
	 */
	private static String nginxTls(TargetSpec.Launch launch) {
		if (!launch.wire().tls()) {
			return "";
		}
		return "\n    ssl_certificate " + launch.tls().certificate().toAbsolutePath() + ";"
				+ "\n    ssl_certificate_key " + launch.tls().privateKey().toAbsolutePath() + ";"
				+ "\n    ssl_protocols TLSv1.2 TLSv1.3;"
				+ "\n    ssl_session_cache shared:TLS:10m;"
				+ "\n    ssl_session_tickets on;";
	}

	private static String javaBin() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

}
