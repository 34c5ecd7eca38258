package io.khamsin.container.egress;

/**
 * Whether TLS connections may hand their sending to the kernel ({@code khamsin.egress.ktls}), so that a file body
 * leaves by {@code sendfile} encrypted by the kernel instead of being read and encrypted in the JVM.
 */
public enum KernelTlsMode {

	/**
	 * Only where it pays: the kernel offers the {@code tls} ULP and the interface a connection leaves by encrypts
	 * TLS records itself (TLS TX offload). Software kernel TLS on a virtual NIC or loopback is slower than user space
	 * TLS, so there the connection stays in user space.
	 */
	AUTO,

	/** Wherever the kernel allows: every eligible TLS 1.3 connection tries, and one the kernel refuses says why. */
	ON,

	/** Never: TLS stays in user space on the listener's provider. */
	OFF

}
