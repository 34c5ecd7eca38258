package io.khamsin.container.http3;

import java.util.List;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.Http3Headers;

import io.khamsin.container.engine.DateHeader;
import io.khamsin.container.fixed.FixedResponseTable;

/**
 * The server's fixed responses as HTTP/3 field sections, built once per entry of its {@link FixedResponseTable}; an
 * answer copies its entry's section and adds {@code date}.
 */
final class Http3FixedResponses {

	private final Http3Headers[] heads;

	private Http3FixedResponses(Http3Headers[] heads) {
		this.heads = heads;
	}

	/**
	 * Build the field section of every entry of a table.
	 * @param table the fixed responses
	 * @return their field sections
	 */
	static Http3FixedResponses encode(FixedResponseTable table) {
		List<FixedResponseTable.Entry> entries = table.entries();
		Http3Headers[] heads = new Http3Headers[entries.size()];
		for (FixedResponseTable.Entry entry : entries) {
			Http3Headers head = new DefaultHttp3Headers(false);
			head.status(entry.statusText());
			entry.forEachField(head::add);
			heads[entry.index()] = head;
		}
		return new Http3FixedResponses(heads);
	}

	/**
	 * The field section of an answer.
	 * @param entry the fixed response
	 * @return a section of its own, {@code date} included
	 */
	Http3Headers headers(FixedResponseTable.Entry entry) {
		Http3Headers head = this.heads[entry.index()];
		Http3Headers headers = new DefaultHttp3Headers(false, head.size() + 1);
		headers.add(head);
		headers.set(HttpHeaderNames.DATE, DateHeader.now());
		return headers;
	}

}
