/**
 * The reactors, their listeners and the first steps of a connection: which I/O transport runs (io_uring, epoll or
 * NIO, {@link io.khamsin.container.transport.Transport}) and why; the reactors themselves
 * ({@link io.khamsin.container.transport.Reactors}, which serve their sockets between tasks at least every millisecond,
 * and give heavy jobs such as a TLS handshake's signature as much of their time as their other work); how a listener
 * is bound ({@link io.khamsin.container.transport.TcpListener}: one {@code SO_REUSEPORT} socket per reactor, or one shared
 * socket, {@link io.khamsin.container.transport.ListenerMode}; a QUIC listener joins as another
 * {@link io.khamsin.container.transport.Listener}); and what every accepted connection goes through
 * ({@link io.khamsin.container.transport.ConnectionInitializer}: admission, its counts, the byte counter, the
 * {@link io.khamsin.container.transport.SendTimeout} that closes a connection whose socket takes none of its response)
 * before its listener's {@link io.khamsin.container.transport.ProtocolSelector} hands it to a protocol's
 * {@link io.khamsin.container.transport.ProtocolInitializer}. TLS, ALPN and the HTTP/2 preface choose the protocol
 * there. On io_uring, a protocol that multiplexes many streams on a connection installs
 * {@link io.khamsin.container.transport.ReadPacing} (one read a reactor turn) and
 * {@link io.khamsin.container.transport.WriteCoalescing} (small writes between two flushes as one buffer), which work
 * around how Netty's io_uring reactor runs tasks and shares its I/O vectors. A file body leaves as the region its
 * transport sends best ({@link io.khamsin.container.transport.FileRegions}: {@code sendfile} on epoll and NIO, a read
 * and an asynchronous send on io_uring, whose splice would hold a kernel worker per client that reads slowly).
 */
package io.khamsin.container.transport;
