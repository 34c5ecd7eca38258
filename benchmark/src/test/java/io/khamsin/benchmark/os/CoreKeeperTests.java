package io.khamsin.benchmark.os;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CoreKeeperTests {

	@Test
	void letsTheCoreHaltUntilTheHandleIsClosed() throws Exception {
		try (CoreKeeper keeper = CoreKeeper.start(0)) {
			assumeTrue(keeper.spinnerPid() > 0, "no spinner on this machine (taskset, nice or chrt missing)");
			assertThat(eventually(keeper.spinnerPid(), 'R')).isEqualTo('R');

			try (CoreKeeper.Resume awake = keeper.letHalt()) {
				// A stop signal takes hold when the spinner next gets the core, which at idle priority can wait a little.
				assertThat(eventually(keeper.spinnerPid(), 'T')).isEqualTo('T');
			}

			assertThat(eventually(keeper.spinnerPid(), 'R')).isEqualTo('R');
		}
	}

	private static char eventually(long pid, char wanted) throws Exception {
		long deadline = System.nanoTime() + 10_000_000_000L;
		char state = state(pid);
		while (state != wanted && System.nanoTime() < deadline) {
			Thread.sleep(20);
			state = state(pid);
		}
		return state;
	}

	private static char state(long pid) throws Exception {
		String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
		return stat.charAt(stat.lastIndexOf(')') + 2);
	}

}
