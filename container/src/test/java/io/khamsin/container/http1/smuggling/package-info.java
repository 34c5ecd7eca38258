/**
 * Request smuggling: a corpus of ambiguous requests ({@code smuggling/corpus.txt} on the test class path, read by
 * {@link io.khamsin.container.http1.smuggling.SmugglingCorpus}) sent to khamsin directly, where each must be refused
 * or parsed exactly as the corpus says, and through nginx and HAProxy in front of khamsin, where none may make a
 * response reach another request than its own. The results table of the last committed run is
 * {@code benchmark/smuggling/RESULTS.md}.
 */
package io.khamsin.container.http1.smuggling;
