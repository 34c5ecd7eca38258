/**
 * The soak: the sample app as a process of its own under a moderate, steady mix of traffic (new connections,
 * keep-alive, slow clients, uploads, downloads) over HTTP/1.1, HTTP/2 and HTTP/3 for minutes, its RSS and
 * descriptors sampled every second, and a verdict on three gates: no errors, RSS flat after warm-up, descriptors back
 * to where they started.
 */
package io.khamsin.benchmark.soak;
