package io.khamsin.container.fixed;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FixedResponse} as a value: two responses with the same contents are equal, whatever arrays hold their
 * bodies, and its text shows the size of the body rather than its bytes.
 */
class FixedResponseValueTests {

	@Test
	void responsesWithEqualContentsAreEqualAndHashAlike() {
		FixedResponse health = new FixedResponse("/health", 200, "application/json",
				"{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8), Map.of("Cache-Control", "no-store"));
		FixedResponse same = new FixedResponse("/health", 200, "application/json",
				"{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8), Map.of("Cache-Control", "no-store"));
		assertThat(same).isEqualTo(health).hasSameHashCodeAs(health);
		assertThat(Set.of(health)).contains(same);
	}

	@Test
	void responsesThatDifferInAnyPartAreNotEqual() {
		FixedResponse health = FixedResponse.of("/health", 200, "text/plain", "UP");
		assertThat(FixedResponse.of("/health", 200, "text/plain", "DOWN")).isNotEqualTo(health);
		assertThat(FixedResponse.of("/ready", 200, "text/plain", "UP")).isNotEqualTo(health);
		assertThat(FixedResponse.of("/health", 503, "text/plain", "UP")).isNotEqualTo(health);
		assertThat(FixedResponse.of("/health", 200, null, "UP")).isNotEqualTo(health);
		assertThat(new FixedResponse("/health", 200, "text/plain", "UP".getBytes(StandardCharsets.UTF_8),
				Map.of("Cache-Control", "no-store")))
			.isNotEqualTo(health);
	}

	@Test
	void toStringShowsTheBodyLengthAndNotItsBytes() {
		FixedResponse health = FixedResponse.of("/health", 200, "text/plain", "UP");
		assertThat(health.toString()).isEqualTo(
				"FixedResponse[path=/health, status=200, contentType=text/plain, body=2 bytes, headers={}]");
	}

}
