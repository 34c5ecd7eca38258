package io.khamsin.boot.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.khamsin.container.accesslog.AccessLogConfig;

/**
 * Configuration of khamsin's access log ({@code khamsin.access-log.*}). Each default equals the engine's
 * default in {@link AccessLogConfig}.
 *
 * @param enabled Whether khamsin writes a line per request. Lines are written by a thread of their own, never by
 * the event loops.
 * @param format Line format: 'common', 'combined', or a pattern of Apache mod_log_config directives (%h %l %u %t
 * %r %m %U %q %H %s %>s %b %B %D %T %{Header}i %%).
 * @param destination Where lines go: 'logger' (the SLF4J logger 'io.khamsin.access', at INFO), 'stdout', or the
 * path of a file to append to.
 * @param queueSize Most lines waiting to be written. When the writer falls behind, further lines are dropped and
 * counted, and a warning says how many.
 */
@ConfigurationProperties("khamsin.access-log")
public record KhamsinAccessLogProperties(@DefaultValue("false") boolean enabled,
		@DefaultValue("common") String format, @DefaultValue("logger") String destination,
		@DefaultValue("8192") int queueSize) {

	/**
	 * The engine's configuration of these properties.
	 * @return the configuration
	 */
	public AccessLogConfig toAccessLogConfig() {
		return new AccessLogConfig(this.enabled, this.format, this.destination, this.queueSize);
	}

}
