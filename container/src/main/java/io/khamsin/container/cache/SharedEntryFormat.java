package io.khamsin.container.cache;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * How an entry is written in the shared tier: a magic and a format version, then either the {@code Vary} names of a
 * page or a response as stored (status, headers, what the cache decided about it, the identity body). A reader that
 * finds another version takes it as a miss: instances of two versions share a store during a rolling upgrade.
 */
final class SharedEntryFormat {

	/** The version written; bump it with any change below. */
	static final int VERSION = 1;

	private static final int MAGIC = 0x4B50_4300; // "KPC\0"

	private static final byte RESPONSE = 1;

	private static final byte VARY = 2;

	private SharedEntryFormat() {
	}

	/** The bytes were written by another format version. */
	static final class VersionMismatchException extends IOException {

		VersionMismatchException(int version) {
			super("shared entry of format version " + version + ", this instance reads version " + VERSION);
		}

	}

	static byte[] encode(VaryMarker marker) {
		try {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
			DataOutputStream out = new DataOutputStream(bytes);
			writeStart(out, VARY);
			out.writeUTF(marker.page());
			out.writeLong(marker.untilMillis());
			writeStrings(out, marker.names());
			return bytes.toByteArray();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static byte[] encode(CachedResponse entry) {
		Representation identity = entry.identity();
		ByteBuf body = (identity != null) ? entry.retainedBody(identity) : null;
		if (body == null) {
			return null;
		}
		try {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream(body.readableBytes() + 512);
			DataOutputStream out = new DataOutputStream(bytes);
			writeStart(out, RESPONSE);
			out.writeUTF(entry.page());
			out.writeUTF(entry.variant());
			out.writeShort(entry.status());
			out.writeShort(entry.headerCount());
			for (int i = 0; i < entry.headerCount(); i++) {
				out.writeUTF(entry.headerName(i));
				writeLongString(out, entry.headerValue(i));
			}
			CachedResponse.Metadata metadata = entry.metadata();
			writeStrings(out, metadata.varyNames());
			out.writeBoolean(metadata.managesCodings());
			out.writeBoolean(metadata.etag() != null);
			if (metadata.etag() != null) {
				out.writeUTF(metadata.etag());
			}
			out.writeLong(metadata.lastModified());
			out.writeLong(metadata.storedAt());
			out.writeLong(metadata.initialAge());
			out.writeLong(metadata.freshMillis());
			out.writeLong(metadata.staleWhileRevalidateMillis());
			out.writeLong(metadata.staleIfErrorMillis());
			out.writeBoolean(metadata.isPublic());
			writeStrings(out, metadata.tags());
			out.writeInt(body.readableBytes());
			body.getBytes(body.readerIndex(), out, body.readableBytes());
			out.flush();
			return bytes.toByteArray();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			body.release();
		}
	}

	/**
	 * Read what {@link #encode} wrote.
	 * @param bytes the bytes
	 * @param alloc where the body goes
	 * @return a {@link VaryMarker} or a {@link CachedResponse} that the caller owns
	 * @throws VersionMismatchException if another version wrote it
	 * @throws IOException if it is not an entry
	 */
	static Stored decode(byte[] bytes, ByteBufAllocator alloc) throws IOException {
		DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
		if (bytes.length < 6 || in.readInt() != MAGIC) {
			throw new IOException("not a page-cache entry");
		}
		int version = in.readUnsignedByte();
		if (version != VERSION) {
			throw new VersionMismatchException(version);
		}
		byte type = in.readByte();
		if (type == VARY) {
			String page = in.readUTF();
			long until = in.readLong();
			return new VaryMarker(page, readStrings(in), until);
		}
		if (type != RESPONSE) {
			throw new IOException("unknown page-cache entry type " + type);
		}
		String page = in.readUTF();
		String variant = in.readUTF();
		int status = in.readUnsignedShort();
		int count = in.readUnsignedShort();
		String[] names = new String[count];
		String[] values = new String[count];
		for (int i = 0; i < count; i++) {
			names[i] = in.readUTF();
			values[i] = readLongString(in);
		}
		List<String> vary = readStrings(in);
		boolean managesCodings = in.readBoolean();
		String etag = in.readBoolean() ? in.readUTF() : null;
		CachedResponse.Metadata metadata = new CachedResponse.Metadata(vary, managesCodings, etag, in.readLong(),
				in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readBoolean(),
				readStrings(in));
		int length = in.readInt();
		if (length < 0 || length > in.available()) {
			throw new IOException("truncated page-cache entry");
		}
		ByteBuf body = alloc.directBuffer(length, length);
		try {
			body.writeBytes(in, length);
		}
		catch (IOException | RuntimeException ex) {
			body.release();
			throw ex;
		}
		return new CachedResponse(page, variant, status, names, values, body, metadata);
	}

	private static void writeStart(DataOutputStream out, byte type) throws IOException {
		out.writeInt(MAGIC);
		out.writeByte(VERSION);
		out.writeByte(type);
	}

	private static void writeStrings(DataOutputStream out, List<String> strings) throws IOException {
		out.writeShort(strings.size());
		for (String string : strings) {
			out.writeUTF(string);
		}
	}

	private static List<String> readStrings(DataInputStream in) throws IOException {
		int count = in.readUnsignedShort();
		List<String> strings = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			strings.add(in.readUTF());
		}
		return List.copyOf(strings);
	}

	private static void writeLongString(DataOutputStream out, String value) throws IOException {
		byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
		out.writeInt(bytes.length);
		out.write(bytes);
	}

	private static String readLongString(DataInputStream in) throws IOException {
		int length = in.readInt();
		if (length < 0 || length > in.available()) {
			throw new IOException("truncated page-cache entry");
		}
		byte[] bytes = new byte[length];
		in.readFully(bytes);
		return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
	}

}
