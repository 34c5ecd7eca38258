/**
 * The reactors and their listeners: which I/O transport runs (io_uring, epoll or NIO) and why, and how the
 * listening sockets are bound (one {@code SO_REUSEPORT} socket per reactor, or one shared socket).
 */
package io.khamsin.container.transport;
