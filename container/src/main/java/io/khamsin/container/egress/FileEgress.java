package io.khamsin.container.egress;

/**
 * The one place that decides how a file body leaves, from what its connection and its response are: a body the
 * page cache stores is read, since the cache must copy it; a stream of a multiplexed connection is read into the
 * protocol's frames; TLS encrypted by the JVM needs the bytes in the JVM; anything else, a plain HTTP/1.1
 * connection or one whose records the kernel seals (kernel TLS), goes from the file to the socket by the kernel.
 */
public final class FileEgress {

	/**
	 * The largest file body read whole: one read on the connection's event loop, sent with its head in one message.
	 */
	public static final int WHOLE_READ_LIMIT = 64 * 1024;

	private FileEgress() {
	}

	/**
	 * How a file body leaves, and why.
	 * @param framed whether the connection frames each stream's body itself (HTTP/2, HTTP/3)
	 * @param sealing who seals the connection's records
	 * @param storedByCache whether the page cache copies the response as it is written
	 * @return the reason, which names the path
	 */
	public static EgressReason choose(boolean framed, TlsSealing sealing, boolean storedByCache) {
		if (storedByCache) {
			return EgressReason.PAGE_CACHE_COPY;
		}
		if (framed) {
			return EgressReason.PROTOCOL_FRAMES;
		}
		return switch (sealing) {
			case PLAIN -> EgressReason.PLAIN_CONNECTION;
			case KERNEL -> EgressReason.KERNEL_TLS;
			case KERNEL_REFUSED -> EgressReason.KERNEL_TLS_REFUSED;
			case USERSPACE -> EgressReason.TLS_IN_USERSPACE;
		};
	}

	/**
	 * Whether a file body is read whole, by one read on its connection's event loop, and written with its head as
	 * one message: where its bytes pass through the JVM anyway (a user-space path, or a transport whose file regions
	 * read the file into buffers, as io_uring's do) and fit one read of at most {@value #WHOLE_READ_LIMIT} bytes.
	 * Otherwise such a body is read in chunks off the event loop, or left to the transport's file region. A read of a
	 * file in the page cache takes microseconds; one that misses it holds the event loop for one disk read of that
	 * size, as each chunk of io_uring's file region already does.
	 * @param reason how the body leaves, from {@link #choose}
	 * @param count the body's length
	 * @param regionsRead whether the connection's transport sends a file region by reading it into buffers
	 * @return whether the body is read whole
	 */
	public static boolean readsWhole(EgressReason reason, long count, boolean regionsRead) {
		return count > 0 && count <= WHOLE_READ_LIMIT && (reason.path() == EgressPath.USERSPACE || regionsRead);
	}

}
