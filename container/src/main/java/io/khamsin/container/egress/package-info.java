/**
 * How response bodies leave the server: the egress modes a running server's connections can use (file bodies by
 * the kernel on plain connections, kernel TLS, pooled buffers in user space) and why one is not available.
 */
package io.khamsin.container.egress;
