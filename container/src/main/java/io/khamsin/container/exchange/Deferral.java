package io.khamsin.container.exchange;

/**
 * A wait an exchange makes before its handler may start, ended by something else than its own request: today the
 * page cache's lookup of a key another request is rendering, which may end by letting the handler run or by an
 * answer from the cache. The exchange knows only that it waits.
 */
interface Deferral {

	/**
	 * Let the exchange go on once the wait ends, on its event loop: {@link HttpExchange#proceed()} to run the
	 * handler, or {@link HttpExchange#answered()} when the request was answered otherwise. Called once.
	 * @param exchange the waiting exchange
	 */
	void whenReady(HttpExchange exchange);

	/**
	 * The exchange ended (its connection closed) before the wait did.
	 */
	void cancel();

}
