package io.khamsin.container.bridge;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.netty.handler.codec.http.HttpHeaderNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Mono;

import io.khamsin.container.egress.EgressPath;
import io.khamsin.container.egress.EgressReason;
import io.khamsin.container.egress.FileEgress;
import io.khamsin.container.transport.FileRegions;

/**
 * The file bodies of responses ({@code ZeroCopyHttpOutputMessage.writeWith(Path, long, long)}): each leaves by the
 * path {@link FileEgress} chooses for its connection, counted by reason. A small body whose bytes pass through the JVM
 * anyway is read whole by one read on the event loop and written with its head as one message; a body the kernel can
 * send goes as a file region after its head ({@link FileRegions}); any other is read in chunks off the event loop and
 * written as a streamed body.
 * <p>
 * A file shorter than its range: a small one is known before anything is written and answered {@code 500}; a larger
 * one ends its response short, which closes the connection (or resets the stream). Either is logged with what to do.
 */
final class FileBodies {

	private static final Logger logger = LoggerFactory.getLogger(FileBodies.class);

	/** The chunks a file body that passes through the JVM is read in. */
	private static final int CHUNK_SIZE = 64 * 1024;

	private FileBodies() {
	}

	/**
	 * Write a response's body from a file, with its head.
	 * @param response the response, committed
	 * @param file the file
	 * @param position where the body starts in the file
	 * @param count the body's length
	 * @return completes once the body was handed to the channel
	 */
	static Mono<Void> write(KhamsinServerHttpResponse response, Path file, long position, long count) {
		ProtocolChannel channel = response.protocolChannel();
		ConnectionInfo connection = channel.connection();
		EgressReason egress = FileEgress.choose(connection.framed(), connection.sealing(), channel.copiesResponse());
		response.egress().record(egress);
		boolean regionsRead = FileRegions.readsIntoBuffers(channel.channel());
		if (!response.isHeadRequest() && FileEgress.readsWhole(egress, count, regionsRead)) {
			boolean asIs = egress.path() == EgressPath.SENDFILE;
			return response.onEventLoop(() -> writeWhole(response, file, position, (int) count, asIs));
		}
		if (egress.path() == EgressPath.SENDFILE) {
			return response.onEventLoop(() -> writeRegion(response, file, position, count));
		}
		response.nettyHeaders().set(HttpHeaderNames.CONTENT_LENGTH, count);
		return new ResponseWrite(response,
				FileChunks.read(file, position, count, response.bufferFactory(), CHUNK_SIZE)
					.doOnError(EOFException.class, (ex) -> logTruncated(file, ex.getMessage())),
				ResponseWrite.Mode.STREAM);
	}

	/**
	 * Read a small file body whole and write it with the head as one message.
	 * @param asIs whether the body stays uncompressed, as the file region the kernel would otherwise send would
	 */
	private static void writeWhole(KhamsinServerHttpResponse response, Path file, long position, int count,
			boolean asIs) {
		if (response.isAborted()) {
			return;
		}
		DataBuffer body;
		try {
			body = FileChunks.readWhole(file, position, count, response.bufferFactory());
		}
		catch (EOFException ex) {
			logger.warn("The file {} is shorter than the range to send from it: {}; answering 500. Replace a served "
					+ "file by renaming a new one into place, not by rewriting it", file, ex.getMessage());
			throw new UncheckedIOException(ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		response.nettyHeaders().set(HttpHeaderNames.CONTENT_LENGTH, count);
		if (asIs) {
			response.writeFullAsIs(body);
		}
		else {
			response.writeFull(body);
		}
	}

	private static void writeRegion(KhamsinServerHttpResponse response, Path file, long position, long count) {
		if (response.isAborted()) {
			return;
		}
		response.writeHeadAndRegion(count,
				() -> FileRegions.of(response.protocolChannel().channel(), file.toFile(), position, count))
			.addListener((sent) -> {
				if (!sent.isSuccess()) {
					logIfTruncated(file, position + count);
				}
			});
	}

	/**
	 * A file region's transfer failed: say so if the file is now shorter than the range (it was truncated while
	 * sent), and not when the client went away. A file unlinked while sent is sent whole from its open descriptor.
	 */
	private static void logIfTruncated(Path file, long end) {
		try {
			long size = Files.size(file);
			if (size < end) {
				logTruncated(file, "it is now " + size + " bytes, shorter than the range sent from it (to " + end + ")");
			}
		}
		catch (IOException ex) {
			// Gone: unlinked files are read whole through the descriptor the region holds, so not the cause.
		}
	}

	private static void logTruncated(Path file, String what) {
		logger.warn("The file {} was truncated while it was sent: {}; its response is cut short and its connection "
				+ "(or HTTP/2 stream) closed. Replace a served file by renaming a new one into place, not by "
				+ "rewriting it", file, what);
	}

}
