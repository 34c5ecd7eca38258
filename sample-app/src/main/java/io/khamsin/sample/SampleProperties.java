package io.khamsin.sample;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample app under {@code sample.*}.
 *
 * @param files the static files served under {@code /files/**}
 * @param page the HTML pages served under {@code /page/{id}}
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue Files files, @DefaultValue Page page) {

	/**
	 * Static files.
	 *
	 * @param dir the directory whose files are served under {@code /files/**}
	 */
	public record Files(@DefaultValue("./files") Path dir) {
	}

	/**
	 * HTML pages.
	 *
	 * @param renderCost how long rendering one page takes
	 * @param renderMode whether that time is spent computing on the reactor thread, as a template engine does, or
	 * waiting on a timer
	 */
	public record Page(@DefaultValue("2ms") Duration renderCost, @DefaultValue("cpu") RenderMode renderMode) {
	}

	/**
	 * How a page spends its render cost.
	 */
	public enum RenderMode {

		/**
		 * Hash the page repeatedly on the calling (reactor) thread until the render cost is spent: CPU work that a
		 * page cache saves.
		 */
		CPU,

		/**
		 * Wait for the render cost on a timer without occupying a thread: latency without CPU work.
		 */
		DELAY

	}

}
