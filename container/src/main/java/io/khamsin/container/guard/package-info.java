/**
 * Guards against slow and hostile clients: the limits and timeouts of a connection and the counters of each
 * time one of them was enforced.
 */
package io.khamsin.container.guard;
