/**
 * The page cache in actuator: {@code /actuator/pagecache} (figures, top keys, purges) and its Micrometer meters
 * ({@code khamsin.pagecache.*}).
 */
package io.khamsin.actuate.cache;
