package io.khamsin.benchmark.scenario;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.khamsin.benchmark.os.AttachProbe;

import static org.assertj.core.api.Assertions.assertThat;

class CpuFixedRateAllocationTests {

	@TempDir
	Path dir;

	@Test
	void aTargetThatCannotBeAttachedToGivesNoFigureAndSaysWhy() {
		long pid = ProcessHandle.current().pid() + 1_000_000;
		CpuFixedRateScenario.Allocation allocation = new CpuFixedRateScenario.Allocation(new AttachProbe(pid, this.dir));

		allocation.start();

		assertThat(allocation.bytesSinceStart()).isEqualTo(-1);
		assertThat(allocation.missing).startsWith("cannot read the direct memory and allocation of " + pid);
	}

}
