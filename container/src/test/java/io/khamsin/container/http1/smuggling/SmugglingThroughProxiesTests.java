package io.khamsin.container.http1.smuggling;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.container.KhamsinServer;
import io.khamsin.container.KhamsinServerConfig;
import io.khamsin.container.http1.smuggling.SmugglingCorpus.Case;
import io.khamsin.container.http1.smuggling.SmugglingCorpus.Protocol;
import io.khamsin.container.http2.Http2Config;
import io.khamsin.container.test.RawHttpConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every case of the smuggling corpus sent through Debian's nginx and HAProxy as reverse proxies in front of khamsin,
 * each reusing its connections to khamsin, followed each time by a victim's request from another client connection:
 * no client gets a response that belongs to another request, no request hidden in a case reaches the application,
 * and khamsin, when it receives a case directly, accepts none that both proxies refuse. With
 * {@code -Dkhamsin.smuggling.report=<file>} the results table is written to that file
 * ({@code benchmark/smuggling/RESULTS.md} is the committed one).
 */
@Timeout(300)
class SmugglingThroughProxiesTests {

	private static final int READ_TIMEOUT_MILLIS = 10_000;

	@TempDir
	Path dir;

	@Test
	void noCaseDesynchronizesTheProxiesAndKhamsinAcceptsNothingBothRefuse() throws Exception {
		ReverseProxy.Kind.NGINX.assumeInstalled();
		ReverseProxy.Kind.HAPROXY.assumeInstalled();
		EchoApplication application = new EchoApplication();
		KhamsinServer server = KhamsinServer.create(KhamsinServerConfig.builder()
			.reactors(1)
			.http2(Http2Config.builder().enabled(true).build())
			.build(), application);
		server.start();
		List<Row> rows = new ArrayList<>();
		try (ReverseProxy nginx = ReverseProxy.start(ReverseProxy.Kind.NGINX, directory("nginx"), server.port());
				ReverseProxy haproxy = ReverseProxy.start(ReverseProxy.Kind.HAPROXY, directory("haproxy"), server.port())) {
			for (Case testCase : SmugglingCorpus.cases()) {
				Probe.Result direct = Probe.send(server.port(), testCase, "direct", READ_TIMEOUT_MILLIS);
				boolean directParsed = !application.read(Probe.path(testCase, "direct")).isEmpty();
				rows.add(new Row(testCase, new Outcome(direct.summary(), directParsed, List.of(), false),
						throughProxy(nginx, testCase, application), throughProxy(haproxy, testCase, application)));
			}
		}
		finally {
			server.stop();
		}
		String report = System.getProperty("khamsin.smuggling.report");
		if (report != null && !report.isBlank()) {
			Files.writeString(Path.of(report), SmugglingReport.markdown(rows, ReverseProxy.Kind.NGINX.version(),
					ReverseProxy.Kind.HAPROXY.version()));
		}
		assertThat(rows).as("cases with a desync").filteredOn(Row::desync).isEmpty();
		// Without reuse of connections to khamsin there is nothing for a victim to be desynchronized on.
		assertThat(rows).as("cases whose victim shared a connection to khamsin with the case, through nginx")
			.filteredOn((row) -> row.nginx().shared())
			.isNotEmpty();
		assertThat(rows).as("cases whose victim shared a connection to khamsin with the case, through HAProxy")
			.filteredOn((row) -> row.haproxy().shared())
			.isNotEmpty();
		assertThat(rows).as("cases both proxies refuse and khamsin accepts")
			.filteredOn((row) -> !row.nginx().parsed() && !row.haproxy().parsed() && row.direct().parsed())
			.isEmpty();
	}

	private Path directory(String name) throws IOException {
		return Files.createDirectories(this.dir.resolve(name));
	}

	/**
	 * Send a case through a proxy, then a victim's request on another connection through the same proxy; the
	 * victim's is likely to travel on the connection to khamsin that the case used last.
	 */
	private static Outcome throughProxy(ReverseProxy proxy, Case testCase, EchoApplication application)
			throws IOException {
		String where = proxy.kind().id();
		String path = Probe.path(testCase, where);
		String marker = Probe.markerPath(testCase, where);
		int smuggledBefore = application.arrived(SmugglingCorpus.SMUGGLED_PATH).size();
		int port = (testCase.protocol() == Protocol.H1) ? proxy.h1Port() : proxy.h2Port();
		Probe.Result attack = Probe.send(port, testCase, where, READ_TIMEOUT_MILLIS);
		List<String> desyncs = new ArrayList<>();
		for (String echo : attack.echoes()) {
			String[] words = echo.split(" ");
			if (words.length != 4 || !(words[1].equals(path) || words[1].equals(marker))) {
				desyncs.add("the client got a response to another request: " + echo);
			}
		}
		String victim = "/victim/" + where + "/" + testCase.id();
		String victimEcho = EchoApplication.echo("GET", victim, "");
		try (RawHttpConnection connection = new RawHttpConnection(proxy.h1Port())) {
			connection.socket().setSoTimeout(READ_TIMEOUT_MILLIS);
			connection.send("GET " + victim + " HTTP/1.1\r\nHost: k\r\nConnection: close\r\n\r\n");
			RawHttpConnection.Response response = connection.read();
			if (response.status() != 200 || !response.bodyText().equals(victimEcho)) {
				desyncs.add("the victim got " + response.status() + " " + response.bodyText());
			}
		}
		catch (SocketTimeoutException ex) {
			desyncs.add("the victim got no response");
		}
		List<String> smuggled = application.arrived(SmugglingCorpus.SMUGGLED_PATH);
		if (smuggled.size() > smuggledBefore) {
			desyncs.add("a hidden request reached the application: " + smuggled.subList(smuggledBefore, smuggled.size()));
		}
		int victimPort = application.clientPort(victim);
		boolean shared = victimPort != -1
				&& (victimPort == application.clientPort(path) || victimPort == application.clientPort(marker));
		return new Outcome(attack.summary(), !application.read(path).isEmpty(), desyncs, shared);
	}

	/**
	 * What became of a case at one receiver.
	 * @param summary the statuses the client got and how the connection or stream ended
	 * @param parsed whether the application read the case's request whole
	 * @param desyncs what showed a desync, if anything
	 * @param shared whether the victim's request reached khamsin on a connection the case's requests had used
	 */
	record Outcome(String summary, boolean parsed, List<String> desyncs, boolean shared) {

		@Override
		public String toString() {
			return (this.parsed ? "passed: " : "refused: ") + this.summary;
		}

	}

	/**
	 * One case's line in the results table.
	 */
	record Row(Case testCase, Outcome direct, Outcome nginx, Outcome haproxy) {

		boolean desync() {
			return !this.nginx.desyncs().isEmpty() || !this.haproxy.desyncs().isEmpty();
		}

		List<String> desyncs() {
			List<String> all = new ArrayList<>();
			this.nginx.desyncs().forEach((desync) -> all.add("nginx: " + desync));
			this.haproxy.desyncs().forEach((desync) -> all.add("haproxy: " + desync));
			return all;
		}

		@Override
		public String toString() {
			return this.testCase.id() + " " + desyncs();
		}

	}

}
