package io.khamsin.container.egress;

import java.util.Locale;

/**
 * Why a file body left the way it did ({@link EgressPath}), as {@link FileEgress#choose} decides and
 * {@link EgressCounters} counts it.
 */
public enum EgressReason {

	/** A plain HTTP/1.1 connection: the kernel copies the file to the socket. */
	PLAIN_CONNECTION(EgressPath.SENDFILE),

	/** TLS encrypted by the JVM: the bytes must pass through it to be encrypted. */
	TLS_IN_USERSPACE(EgressPath.USERSPACE),

	/** TLS encrypted by the kernel (kernel TLS): the kernel copies the file to the socket and seals it. */
	KERNEL_TLS(EgressPath.SENDFILE),

	/** Kernel TLS was tried for the connection and the kernel refused it: encrypted by the JVM after all. */
	KERNEL_TLS_REFUSED(EgressPath.USERSPACE),

	/** A stream of a multiplexed connection (HTTP/2): the body is cut into the protocol's frames. */
	PROTOCOL_FRAMES(EgressPath.USERSPACE),

	/** The page cache stores the response as it is written, so it must see the bytes. */
	PAGE_CACHE_COPY(EgressPath.USERSPACE);

	private final EgressPath path;

	EgressReason(EgressPath path) {
		this.path = path;
	}

	/** @return the way the body leaves for this reason */
	public EgressPath path() {
		return this.path;
	}

	/** @return the name used in tags: the constant in lower case, words joined by {@code -} */
	public String tag() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
