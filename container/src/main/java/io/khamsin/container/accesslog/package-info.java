/**
 * The access log: one line per request, captured on the event loop when the response's last write completes and
 * formatted and written by a thread of its own, so that a slow disk never stalls a reactor.
 */
package io.khamsin.container.accesslog;
