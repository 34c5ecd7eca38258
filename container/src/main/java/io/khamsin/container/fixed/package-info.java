/**
 * Fixed responses: the answers a server gives for a path without entering the application
 * ({@link io.khamsin.container.fixed.FixedResponse}, as configured), and the table they are prepared into once at
 * start, which the exchange stage looks requests up in and each protocol encodes in its own form.
 */
package io.khamsin.container.fixed;
