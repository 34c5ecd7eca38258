package io.khamsin.benchmark.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which I/O transport a running server uses, read from the kernel's side rather than from what the server says of
 * itself: an io_uring instance shows as an {@code anon_inode:[io_uring]} descriptor, an epoll instance as
 * {@code anon_inode:[eventpoll]}; Netty's native epoll transport is told from the JDK's selector (which also sits
 * on epoll) by the {@code anon_inode:[timerfd]} each of its event loops keeps for scheduled tasks, which the JDK's
 * selector has no use for (a library merely loaded to ask whether epoll is available opens none). Summed over the
 * process tree (nginx's workers are children of its master).
 */
public final class TransportProbe {

	/** io_uring rings are open: the server's event loops run on io_uring. */
	public static final String IO_URING = "io_uring";

	/** epoll instances with Netty's timer descriptors: Netty's epoll transport; or a program that is no JVM on epoll. */
	public static final String EPOLL = "epoll";

	/** epoll instances without timer descriptors in a JVM: the JDK's NIO selector (which uses epoll on Linux). */
	public static final String NIO = "nio";

	/** Neither: nothing this probe recognizes. */
	public static final String UNKNOWN = "unknown";

	private TransportProbe() {
	}

	/**
	 * @param pid the root of the process tree
	 * @param jvm whether it is a JVM (for another program, epoll instances mean epoll: it has no JDK selector)
	 * @return {@link #IO_URING}, {@link #EPOLL}, {@link #NIO} or {@link #UNKNOWN}
	 */
	public static String of(long pid, boolean jvm) {
		int rings = 0;
		int epolls = 0;
		int timers = 0;
		for (long member : new ProcessTree(pid).pids()) {
			for (String link : descriptors(member)) {
				switch (link) {
					case "anon_inode:[io_uring]" -> rings++;
					case "anon_inode:[eventpoll]" -> epolls++;
					case "anon_inode:[timerfd]" -> timers++;
					default -> {
					}
				}
			}
		}
		return classify(rings, epolls, timers, jvm);
	}

	/**
	 * The decision, apart from /proc.
	 * @param rings io_uring descriptors open
	 * @param epolls epoll descriptors open
	 * @param timers timerfd descriptors open
	 * @param jvm whether the process is a JVM
	 */
	static String classify(int rings, int epolls, int timers, boolean jvm) {
		if (rings > 0) {
			return IO_URING;
		}
		if (epolls > 0) {
			return (timers > 0 || !jvm) ? EPOLL : NIO;
		}
		return UNKNOWN;
	}

	private static List<String> descriptors(long pid) {
		try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
			return fds.map((fd) -> {
				try {
					return Files.readSymbolicLink(fd).toString();
				}
				catch (IOException ex) {
					return "";
				}
			}).toList();
		}
		catch (IOException ex) {
			return List.of();
		}
	}

}
