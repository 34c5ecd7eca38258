/**
 * The targets under test: how each one is started, pinned and stopped, and the integrity check of its answers
 * that a target must pass before it is measured.
 */
package io.khamsin.benchmark.target;
