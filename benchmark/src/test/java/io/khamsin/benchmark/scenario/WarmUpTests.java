package io.khamsin.benchmark.scenario;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WarmUpTests {

	private final Settings full = Settings.full(3);

	@Test
	void aJvmWarmsUpUntilTwoWindowsAgreeWithinThreePercentAfterAtLeastAMinute() {
		// Climbing as a JIT compiles, then within 3% from the 14th window (70 s) on.
		List<Double> rates = new ArrayList<>(List.of(5_000.0, 9_000.0, 14_000.0, 20_000.0, 26_000.0, 30_000.0,
				33_000.0, 35_000.0, 36_500.0, 38_000.0, 39_000.0, 41_000.0, 43_000.0, 44_000.0, 44_500.0, 44_400.0));
		List<Double> asked = new ArrayList<>();

		WarmUp warmUp = WarmUp.Rule.of(this.full, true).run(source(rates, asked));

		assertThat(warmUp.steady()).isTrue();
		assertThat(warmUp.seconds()).isEqualTo(70);
		assertThat(warmUp.windows()).hasSize(14).endsWith(43_000.0, 44_000.0);
		assertThat(asked).allMatch((seconds) -> seconds == 5);
		assertThat(warmUp.rate()).isEqualTo(44_000);
		assertThat(warmUp.describe()).isEqualTo("70 s, steady (43,000 then 44,000 req/s)");
	}

	@Test
	void aJvmThatLooksSteadyEarlyStillWarmsUpForAMinute() {
		WarmUp warmUp = WarmUp.Rule.of(this.full, true).run(source(constant(20_000, 40), new ArrayList<>()));

		assertThat(warmUp.steady()).isTrue();
		assertThat(warmUp.seconds()).isEqualTo(60);
		assertThat(warmUp.windows()).hasSize(12);
	}

	@Test
	void aTargetThatNeverSettlesIsMeasuredAfterTheLimitAndSaidNotSteady() {
		List<Double> swinging = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			swinging.add((i % 2 == 0) ? 20_000.0 : 24_000.0);
		}

		WarmUp warmUp = WarmUp.Rule.of(this.full, true).run(source(swinging, new ArrayList<>()));

		assertThat(warmUp.steady()).isFalse();
		assertThat(warmUp.seconds()).isEqualTo(300);
		assertThat(warmUp.describe()).startsWith("300 s, NOT steady within 3% after the 300 s limit");
	}

	@Test
	void aProgramThatIsNoJvmNeedsTwoAgreeingWindowsOnly() {
		WarmUp warmUp = WarmUp.Rule.of(this.full, false).run(source(constant(70_000, 10), new ArrayList<>()));

		assertThat(warmUp.seconds()).isEqualTo(10);
		assertThat(warmUp.steady()).isTrue();
	}

	@Test
	void theLeastWarmUpOfAJvmComesFromTheSettings() {
		WarmUp.Rule rule = WarmUp.Rule.of(this.full.withWarmup(90), true);

		assertThat(rule.minimumSeconds()).isEqualTo(90);
		assertThat(rule.maximumSeconds()).isEqualTo(300);
		assertThat(rule.steady(List.of(100.0, 100.0), 85)).isFalse();
		assertThat(rule.steady(List.of(100.0, 103.0), 90)).isTrue();
		assertThat(rule.steady(List.of(100.0, 103.2), 90)).isFalse();
		assertThat(rule.steady(List.of(0.0, 0.0), 90)).isFalse();
	}

	@Test
	void theMostWarmUpComesFromTheSettingsAndBoundsTheLeast() {
		WarmUp.Rule rule = WarmUp.Rule.of(this.full.withWarmupMax(120), true);
		assertThat(rule.minimumSeconds()).isEqualTo(60);
		assertThat(rule.maximumSeconds()).isEqualTo(120);
		WarmUp unsteady = rule.run(source(alternating(100_000, 70_000, 40), new ArrayList<>()));
		assertThat(unsteady.seconds()).isEqualTo(120);
		assertThat(unsteady.steady()).isFalse();
		assertThat(WarmUp.Rule.of(this.full.withWarmupMax(30), true).minimumSeconds()).isEqualTo(30);
	}

	private static List<Double> alternating(double high, double low, int windows) {
		List<Double> rates = new ArrayList<>();
		for (int i = 0; i < windows; i++) {
			rates.add((i % 2 == 0) ? high : low);
		}
		return rates;
	}

	private static List<Double> constant(double rate, int windows) {
		List<Double> rates = new ArrayList<>();
		for (int i = 0; i < windows; i++) {
			rates.add(rate);
		}
		return rates;
	}

	private static java.util.function.DoubleUnaryOperator source(List<Double> rates, List<Double> asked) {
		Iterator<Double> next = rates.iterator();
		return (seconds) -> {
			asked.add(seconds);
			return next.next();
		};
	}

}
