package io.khamsin.container.cache;

/**
 * Why a request is not looked up in the page cache.
 */
public enum BypassReason {

	/** The page cache is switched off. */
	DISABLED,

	/** The method is not {@code GET} or {@code HEAD}. */
	METHOD,

	/** The request has a body. */
	BODY,

	/** The request names no host, or its target is not a path. */
	TARGET,

	/** The request says {@code Cache-Control: no-store}. */
	NO_STORE,

	/** The request asks for a protocol switch ({@code Upgrade}), such as a WebSocket handshake. */
	UPGRADE,

	/** A recent render of the key was not cacheable: the next ones go straight to the application for a while. */
	RECENTLY_UNCACHEABLE

}
