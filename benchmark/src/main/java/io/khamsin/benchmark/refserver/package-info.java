/**
 * The reference servers that answer the scenario routes without a framework: a minimal Netty 4.2 epoll server
 * (the JVM limit for a Netty server) and a Vert.x 5 core HTTP server (the fastest JVM peer users pick).
 */
package io.khamsin.benchmark.refserver;
