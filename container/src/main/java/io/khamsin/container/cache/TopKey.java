package io.khamsin.container.cache;

/**
 * One of the keys with the most hits.
 *
 * @param key the page key ({@code scheme://host/path?query}, with its {@code Vary} values when it has some)
 * @param hits the hits since it was stored
 * @param bytes the bytes it takes
 */
public record TopKey(String key, long hits, long bytes) {

}
