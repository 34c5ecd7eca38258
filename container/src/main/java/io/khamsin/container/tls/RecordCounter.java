package io.khamsin.container.tls;

/**
 * Counts the TLS records in a stream of bytes sent, across however the stream is cut: each record is a 5-byte
 * header whose last two bytes give the length of what follows.
 */
final class RecordCounter {

	private static final int HEADER_LENGTH = 5;

	private long records;

	private int headerSeen;

	private int length;

	private int bodyLeft;

	/**
	 * Count the records that begin in some bytes.
	 * @param bytes the bytes
	 * @param offset where they begin
	 * @param count how many
	 */
	void add(byte[] bytes, int offset, int count) {
		int i = offset;
		int end = offset + count;
		while (i < end) {
			if (this.bodyLeft > 0) {
				int take = Math.min(this.bodyLeft, end - i);
				this.bodyLeft -= take;
				i += take;
				continue;
			}
			if (this.headerSeen == 3) {
				this.length = (bytes[i] & 0xff) << 8;
			}
			else if (this.headerSeen == 4) {
				this.length |= bytes[i] & 0xff;
			}
			i++;
			if (++this.headerSeen == HEADER_LENGTH) {
				this.records++;
				this.headerSeen = 0;
				this.bodyLeft = this.length;
			}
		}
	}

	/** @return how many records have begun */
	long records() {
		return this.records;
	}

}
