package io.khamsin.container.egress;

/**
 * The one place that decides how a file body leaves, from what its connection and its response are: a body the
 * page cache stores is read, since the cache must copy it; a stream of a multiplexed connection is read into the
 * protocol's frames; TLS encrypted by the JVM needs the bytes in the JVM; anything else, a plain HTTP/1.1
 * connection or one whose records the kernel seals (kernel TLS), goes from the file to the socket by the kernel.
 */
public final class FileEgress {

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

}
