package io.khamsin.benchmark.soak;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * What a soak saw and its verdict on the gates: no errors in any workload, RSS at the end of the load within 1.1 times
 * the RSS after the warm-up, as many descriptors after the load as before it, and the server still running.
 *
 * @param fields the summary as written to {@code summary.json}, in order
 * @param failures the gates that failed, each with its figures; empty when the soak passed
 */
public record SoakSummary(Map<String, Object> fields, List<String> failures) {

	/** The most the RSS at the end of the load may be, over the RSS after the warm-up. */
	public static final double RSS_LIMIT = 1.1;

	/** @return whether every gate passed */
	public boolean passed() {
		return this.failures.isEmpty();
	}

	void write(Path file) throws IOException {
		Files.writeString(file, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
			.writeValueAsString(this.fields) + "\n");
	}

	/** Collects a soak's figures as it runs. */
	static final class Builder {

		private final SoakSettings settings;

		private final String command;

		private final String started = Instant.now().toString();

		private final String loadAverageStart = loadAverage();

		private Map<String, Workload.Outcome> prime = Map.of();

		private Map<String, Workload.Outcome> workloads = Map.of();

		private ResourceSampler.Sample start;

		private ResourceSampler.Sample afterWarmup;

		private ResourceSampler.Sample endOfLoad;

		private ResourceSampler.Sample end;

		private boolean alive;

		private List<ResourceSampler.Sample> samples = List.of();

		Builder(SoakSettings settings, String command) {
			this.settings = settings;
			this.command = command;
		}

		void prime(Map<String, Workload.Outcome> prime) {
			this.prime = prime;
		}

		void start(ResourceSampler.Sample start) {
			this.start = start;
		}

		void afterWarmup(ResourceSampler.Sample sample) {
			this.afterWarmup = sample;
		}

		void endOfLoad(ResourceSampler.Sample sample) {
			this.endOfLoad = sample;
		}

		void workloads(Map<String, Workload.Outcome> workloads) {
			this.workloads = workloads;
		}

		void end(ResourceSampler.Sample end) {
			this.end = end;
		}

		void alive(boolean alive) {
			this.alive = alive;
		}

		void samples(List<ResourceSampler.Sample> samples) {
			this.samples = samples;
		}

		SoakSummary build() {
			Map<String, Object> fields = new LinkedHashMap<>();
			fields.put("tier", this.settings.tier());
			fields.put("duration_s", this.settings.duration().toSeconds());
			fields.put("warmup_s", this.settings.warmup().toSeconds());
			fields.put("started", this.started);
			fields.put("host", host());
			fields.put("commit", System.getProperty("khamsin.soak.commit", "unknown"));
			fields.put("cores", Runtime.getRuntime().availableProcessors());
			fields.put("load_average_start", this.loadAverageStart);
			fields.put("load_average_end", loadAverage());
			fields.put("java", System.getProperty("java.version"));
			fields.put("server_command", this.command);
			long requests = 0;
			long errors = 0;
			List<Map<String, Object>> rows = new ArrayList<>();
			for (Map.Entry<String, Workload.Outcome> entry : this.workloads.entrySet()) {
				Workload.Outcome outcome = entry.getValue();
				Workload.Outcome primed = this.prime.getOrDefault(entry.getKey(), new Workload.Outcome(0, 0, null));
				Map<String, Object> row = new LinkedHashMap<>();
				row.put("name", entry.getKey());
				row.put("requests", outcome.requests());
				row.put("errors", outcome.errors());
				row.put("rate_per_s", Math.round(outcome.requests() * 10.0 / this.settings.duration().toSeconds()) / 10.0);
				row.put("first_error", outcome.firstError());
				row.put("seconds", Math.round(outcome.seconds() * 10) / 10.0);
				row.put("prime_requests", primed.requests());
				row.put("prime_errors", primed.errors());
				row.put("prime_first_error", primed.firstError());
				rows.add(row);
				requests += outcome.requests() + primed.requests();
				errors += outcome.errors() + primed.errors();
			}
			fields.put("workloads", rows);
			fields.put("requests", requests);
			fields.put("errors", errors);
			long rssMax = this.samples.stream().mapToLong(ResourceSampler.Sample::rssKb).max().orElse(-1);
			int fdMax = this.samples.stream().mapToInt(ResourceSampler.Sample::fds).max().orElse(-1);
			fields.put("rss_kb_start", rss(this.start));
			fields.put("rss_kb_after_warmup", rss(this.afterWarmup));
			fields.put("rss_kb_end", rss(this.endOfLoad));
			fields.put("rss_kb_max", rssMax);
			double ratio = (this.afterWarmup != null && this.endOfLoad != null)
					? (double) this.endOfLoad.rssKb() / this.afterWarmup.rssKb() : Double.NaN;
			fields.put("rss_end_over_after_warmup", Math.round(ratio * 1000) / 1000.0);
			fields.put("fd_start", fds(this.start));
			fields.put("fd_end", fds(this.end));
			fields.put("fd_max", fdMax);
			fields.put("fd_end_seconds_after_load", (this.end != null && this.endOfLoad != null)
					? Math.round((this.end.seconds() - this.endOfLoad.seconds()) * 10) / 10.0 : null);
			fields.put("threads_start", (this.start != null) ? this.start.threads() : -1);
			fields.put("threads_end", (this.end != null) ? this.end.threads() : -1);
			List<String> failures = new ArrayList<>();
			if (errors != 0) {
				failures.add("errors: " + errors + " (first: " + firstError() + ")");
			}
			if (!(ratio <= RSS_LIMIT)) {
				failures.add("rss: " + rss(this.endOfLoad) + " kB at the end over " + rss(this.afterWarmup)
						+ " kB after the warm-up is " + ratio + ", over " + RSS_LIMIT);
			}
			if (this.start == null || this.end == null || this.end.fds() != this.start.fds()) {
				failures.add("fds: " + fds(this.end) + " after the load, " + fds(this.start) + " before it");
			}
			if (!this.alive) {
				failures.add("server: it was no longer running after the load");
			}
			Map<String, Object> gates = new LinkedHashMap<>();
			gates.put("no_errors", errors == 0);
			gates.put("rss_flat", ratio <= RSS_LIMIT);
			gates.put("fds_returned", this.start != null && this.end != null && this.end.fds() == this.start.fds());
			gates.put("server_alive", this.alive);
			fields.put("gates", gates);
			fields.put("pass", failures.isEmpty());
			fields.put("failures", failures);
			return new SoakSummary(fields, failures);
		}

		private String firstError() {
			for (Map<String, Workload.Outcome> outcomes : List.of(this.prime, this.workloads)) {
				for (Map.Entry<String, Workload.Outcome> entry : outcomes.entrySet()) {
					if (entry.getValue().firstError() != null) {
						return entry.getKey() + ": " + entry.getValue().firstError();
					}
				}
			}
			return "none recorded";
		}

		private static long rss(ResourceSampler.Sample sample) {
			return (sample != null) ? sample.rssKb() : -1;
		}

		private static int fds(ResourceSampler.Sample sample) {
			return (sample != null) ? sample.fds() : -1;
		}

		private static String loadAverage() {
			try {
				return Files.readString(Path.of("/proc/loadavg")).trim();
			}
			catch (IOException ex) {
				return "unknown";
			}
		}

		private static String host() {
			try {
				return InetAddress.getLocalHost().getHostName();
			}
			catch (IOException ex) {
				return "unknown";
			}
		}

	}

}
