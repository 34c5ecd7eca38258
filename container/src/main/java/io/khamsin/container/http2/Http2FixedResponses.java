package io.khamsin.container.http2;

import java.util.List;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;

import io.khamsin.container.engine.DateHeader;
import io.khamsin.container.fixed.FixedResponseTable;

/**
 * The server's fixed responses as HTTP/2 header blocks, built once per entry of its {@link FixedResponseTable}; an
 * answer copies its entry's block and adds {@code date}.
 */
final class Http2FixedResponses {

	private final Http2Headers[] heads;

	private Http2FixedResponses(Http2Headers[] heads) {
		this.heads = heads;
	}

	/**
	 * Build the header block of every entry of a table.
	 * @param table the fixed responses
	 * @return their header blocks
	 */
	static Http2FixedResponses encode(FixedResponseTable table) {
		List<FixedResponseTable.Entry> entries = table.entries();
		Http2Headers[] heads = new Http2Headers[entries.size()];
		for (FixedResponseTable.Entry entry : entries) {
			Http2Headers head = new DefaultHttp2Headers(false);
			head.status(entry.statusText());
			entry.forEachField(head::add);
			heads[entry.index()] = head;
		}
		return new Http2FixedResponses(heads);
	}

	/**
	 * The header block of an answer.
	 * @param entry the fixed response
	 * @return a block of its own, {@code date} included
	 */
	Http2Headers headers(FixedResponseTable.Entry entry) {
		Http2Headers head = this.heads[entry.index()];
		Http2Headers headers = new DefaultHttp2Headers(false, head.size() + 1);
		headers.add(head);
		headers.set(HttpHeaderNames.DATE, DateHeader.now());
		return headers;
	}

}
