/**
 * The leak probe from outside: request shapes that leave a body or a stream half-handled, sent to a running server
 * whose Netty leak detector is at PARANOID, and the leak reports its log shows after each shape.
 */
package io.khamsin.benchmark.leak;
