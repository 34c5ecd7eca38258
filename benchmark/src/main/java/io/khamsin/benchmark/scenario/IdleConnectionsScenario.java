package io.khamsin.benchmark.scenario;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.khamsin.benchmark.load.IdleConnections;
import io.khamsin.benchmark.load.LoadSpec;
import io.khamsin.benchmark.load.RequestTemplate;
import io.khamsin.benchmark.os.AttachProbe;
import io.khamsin.benchmark.os.AttachProbe.Reading;
import io.khamsin.benchmark.os.JvmProbe;
import io.khamsin.benchmark.os.ProcessTree;
import io.khamsin.benchmark.target.IntegrityCheck;
import io.khamsin.benchmark.target.Route;
import io.khamsin.benchmark.target.TargetProcess;

/**
 * {@code idle-10k}: 10,000 keep-alive connections that each made one request and stay idle. RSS barely moves on a
 * JVM (it reuses memory it already touched), so the headline for JVM targets is the live heap (class histogram after
 * a full GC) plus the direct buffer memory ({@link AttachProbe}) per connection, connections open minus none
 * open; each part, NMT's "Other" category and RSS/PSS go beside it. nginx gets its PSS per connection. Each round
 * starts a fresh process.
 */
final class IdleConnectionsScenario extends FreshProcessScenario {

	static final int CONNECTIONS = 10_000;

	@Override
	public String name() {
		return "idle-10k";
	}

	@Override
	public String unit() {
		return "B/conn";
	}

	@Override
	public String figure() {
		return "10,000 idle keep-alive connections: live heap (class histogram after full GC) plus direct buffer "
				+ "bytes per connection; each part, NMT Other and RSS/PSS per connection beside; nginx: PSS per connection";
	}

	@Override
	List<String> extraJvmFlags() {
		return List.of("-XX:NativeMemoryTracking=summary");
	}

	@Override
	Measurement measure(RunContext context, TargetProcess process, IntegrityCheck.Result check, double startMillis,
			int round) {
		RequestTemplate request = RequestTemplate.get(Route.PLAINTEXT.path(), check.bodyLength());
		context.generator().run(LoadSpec.closedLoop(process.address(), request, 16, Duration.ZERO,
				Duration.ofSeconds(2)));
		ProcessTree tree = new ProcessTree(process.pid());
		Jvm jvm = process.spec().jvm() ? new Jvm(context, process) : null;
		if (jvm != null) {
			jvm.before();
		}
		long rssBefore = tree.rssKb();
		long pssBefore = tree.pssKb();
		step(context, process, round, String.format("opening %,d idle connections", CONNECTIONS));
		try (IdleConnections idle = context.generator().openIdle(process.address(), request, CONNECTIONS)) {
			sleep(1000);
			int open = idle.open();
			if (open < CONNECTIONS * 0.99) {
				throw new IllegalStateException("only " + open + " of " + CONNECTIONS + " connections stayed open ("
						+ idle.failed() + " failed)");
			}
			Map<String, Object> extras = new LinkedHashMap<>();
			extras.put("connections", open);
			double rssPer = (tree.rssKb() - rssBefore) * 1024.0 / open;
			double pssPer = (tree.pssKb() - pssBefore) * 1024.0 / open;
			extras.put("rss_b_per_conn", Math.round(rssPer));
			extras.put("pss_b_per_conn", Math.round(pssPer));
			double value;
			String note;
			if (jvm != null) {
				note = jvm.after(open, extras);
				value = (double) extras.get("metric_value");
				extras.remove("metric_value");
			}
			else {
				value = pssPer;
				note = "PSS per connection (no heap to weigh)";
				extras.put("metric", "PSS");
			}
			step(context, process, round, String.format("  %,.0f B/conn (%s), RSS %,.0f B/conn", value,
					extras.get("metric"), rssPer));
			return Measurement.of(value, note, extras, extras);
		}
	}

	/** The JVM figures of one round: live heap, direct buffers and NMT "Other", before and after. */
	private static final class Jvm {

		private final JvmProbe jcmd;

		private final AttachProbe direct;

		private long heap;

		private long nmtOtherKb;

		private Reading directBefore;

		private String directProblem;

		Jvm(RunContext context, TargetProcess process) {
			this.jcmd = new JvmProbe(process.pid());
			this.direct = new AttachProbe(process.pid(), context.runDir().resolve("targets"));
		}

		void before() {
			// Direct memory first: the probe's one-time loading settles before the heap is weighed.
			try {
				this.directBefore = this.direct.read();
			}
			catch (IllegalStateException ex) {
				this.directProblem = ex.getMessage();
			}
			this.heap = this.jcmd.liveHeapBytes();
			this.nmtOtherKb = this.jcmd.nmtOtherKb();
		}

		/** @return the note of the row; puts the headline in {@code extras} under {@code metric_value} */
		String after(int open, Map<String, Object> extras) {
			Reading directAfter = null;
			if (this.directBefore != null) {
				try {
					directAfter = this.direct.read();
				}
				catch (IllegalStateException ex) {
					this.directProblem = ex.getMessage();
				}
			}
			double heapPer = (this.jcmd.liveHeapBytes() - this.heap) / (double) open;
			long nmtOtherAfter = this.jcmd.nmtOtherKb();
			extras.put("heap_b_per_conn", Math.round(heapPer));
			if (directAfter != null) {
				double directPer = (directAfter.directBytes() - this.directBefore.directBytes()) / (double) open;
				extras.put("direct_b_per_conn", RateScenario.round1(directPer));
				extras.put("direct_jdk_b_per_conn",
						RateScenario.round1((directAfter.jdkBytes() - this.directBefore.jdkBytes()) / (double) open));
				if (directAfter.nettyBytes() >= 0) {
					extras.put("direct_netty_b_per_conn", RateScenario.round1(
							(directAfter.nettyBytes() - Math.max(0, this.directBefore.nettyBytes())) / (double) open));
				}
				extras.put("metric", "live heap + direct");
				extras.put("metric_value", heapPer + directPer);
			}
			else {
				extras.put("direct_b_per_conn", null);
				extras.put("metric", "live heap");
				extras.put("metric_value", heapPer);
			}
			extras.put("nmt_other_b_per_conn", (this.nmtOtherKb >= 0 && nmtOtherAfter >= 0)
					? Math.round((nmtOtherAfter - this.nmtOtherKb) * 1024.0 / open) : null);
			return (directAfter != null) ? "" : "live heap only: direct memory not read (" + this.directProblem + ")";
		}

	}

}
