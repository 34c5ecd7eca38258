package io.khamsin.benchmark.os;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ProcessTreeTests {

	@Test
	void countsTheRunTimeOfABusyChildAndNoneOfASleepingOne() throws Exception {
		assumeTrue(ProcessTree.hasSchedstat(), "this kernel keeps no /proc/PID/schedstat");
		Process shell = new ProcessBuilder("sh", "-c", "sleep 30 & while :; do :; done").start();
		try {
			ProcessTree tree = new ProcessTree(shell.pid());
			Thread.sleep(200);
			long sleeperBefore = sleeperNanos(tree);
			// The window encloses both readings: reading /proc takes a while on a busy machine.
			long started = System.nanoTime();
			long busyBefore = tree.cpuNanos();
			Thread.sleep(1000);
			long busy = tree.cpuNanos() - busyBefore;
			long window = System.nanoTime() - started;

			// One thread spinning: at most the window, and on a shared machine at least a share of it.
			assertThat(busy).isBetween(window / 20, window + TimeUnit.MILLISECONDS.toNanos(50));
			assertThat(sleeperNanos(tree) - sleeperBefore).isLessThan(TimeUnit.MILLISECONDS.toNanos(20));
		}
		finally {
			shell.descendants().forEach(ProcessHandle::destroyForcibly);
			shell.destroyForcibly().waitFor();
		}
	}

	@Test
	void countsTheOpenFilesAndThreadsOfAProcessAndRefusesOneThatEnded() throws Exception {
		// A shell holding three more descriptors than it starts with (0, 1, 2), and one thread.
		Process shell = new ProcessBuilder("sh", "-c", "exec 3</dev/null 4</dev/null 5</dev/null; sleep 30").start();
		try {
			long pid = shell.pid();
			Thread.sleep(300);
			assertThat(ProcessTree.threads(pid)).isEqualTo(1);
			assertThat(ProcessTree.openFds(pid)).isEqualTo(6);
			assertThat(ProcessTree.threads(ProcessHandle.current().pid())).isGreaterThan(1);
		}
		finally {
			shell.destroyForcibly().waitFor();
		}
		assertThatIllegalStateException().isThrownBy(() -> ProcessTree.openFds(shell.pid()))
			.withMessageContaining("cannot count the open files of " + shell.pid());
	}

	private static long sleeperNanos(ProcessTree tree) {
		long sleeper = tree.pids().stream().filter((pid) -> pid != tree.pid()).findFirst().orElseThrow();
		return new ProcessTree(sleeper).cpuNanos();
	}

}
