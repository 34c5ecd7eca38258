/**
 * How response bodies leave the server: {@link io.khamsin.container.egress.FileEgress} decides for each file body
 * whether it goes from the file to the socket by the kernel or through pooled buffers, and why, and whether a small
 * one is read whole on its event loop
 * ({@link io.khamsin.container.egress.EgressReason}), counted in {@link io.khamsin.container.egress.EgressCounters};
 * {@link io.khamsin.container.egress.EgressModes} says which ways a running server's connections can use. Kernel TLS
 * joins as a row of the choice: {@link io.khamsin.container.egress.TlsSealing} says who seals a connection's records,
 * {@link io.khamsin.container.egress.KernelTlsMode} is {@code khamsin.egress.ktls}.
 */
package io.khamsin.container.egress;
