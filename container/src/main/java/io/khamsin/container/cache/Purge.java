package io.khamsin.container.cache;

import java.nio.charset.StandardCharsets;

/**
 * One purge, as applied locally and published to the other instances.
 *
 * @param kind what it drops
 * @param value the key, prefix or tag; empty for {@link Kind#ALL}
 */
public record Purge(Kind kind, String value) {

	/**
	 * What a purge drops.
	 */
	public enum Kind {

		/** One page: its variants, its {@code HEAD}, its encodings. */
		KEY,

		/** Every page whose key starts with the value. */
		PREFIX,

		/** Every page tagged with the value. */
		TAG,

		/** Every page. */
		ALL

	}

	public Purge {
		if (kind == null) {
			throw new IllegalArgumentException("kind must not be null");
		}
		value = (value != null) ? value : "";
		if (kind != Kind.ALL && value.isEmpty()) {
			throw new IllegalArgumentException("a purge by " + kind.name().toLowerCase() + " needs a value");
		}
	}

	/**
	 * Whether a page key falls under this purge (tags aside, which the entries hold).
	 * @param page the page key
	 * @return whether it is dropped
	 */
	public boolean matchesPage(String page) {
		return switch (this.kind) {
			case ALL -> true;
			case TAG -> false;
			case KEY -> this.value.startsWith("/") ? this.value.equals(PageKeys.pathAndQuery(page))
					: this.value.equals(page);
			case PREFIX -> this.value.startsWith("/") ? PageKeys.pathAndQuery(page).startsWith(this.value)
					: page.startsWith(this.value);
		};
	}

	/** @return the purge as a pub/sub message */
	public byte[] encode() {
		return (this.kind.name() + ' ' + this.value).getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Read a pub/sub message.
	 * @param message the message
	 * @return the purge
	 * @throws IllegalArgumentException if it is not a purge
	 */
	public static Purge decode(byte[] message) {
		String text = new String(message, StandardCharsets.UTF_8);
		int space = text.indexOf(' ');
		if (space < 0) {
			throw new IllegalArgumentException("not a page-cache purge: " + text);
		}
		return new Purge(Kind.valueOf(text.substring(0, space)), text.substring(space + 1));
	}

}
