/**
 * Kernel TLS's arithmetic, with no I/O: the TLS 1.3 key schedule that turns a traffic secret into the key and IV a
 * record is sealed with (RFC 8446 sections 7.1 to 7.3), the {@code tls12_crypto_info_*} structure the kernel's
 * {@code tls} module takes for {@code TLS_TX} and {@code TLS_RX} ({@code linux/tls.h}), and the opening of one
 * TLS 1.3 record, by which the records a connection sent can be checked against the keys and sequence number it
 * hands the kernel. The handshake that yields the secrets, and the hand-over itself, are in {@code tls}
 * ({@code KernelTlsHandler}).
 */
package io.khamsin.container.ktls;
