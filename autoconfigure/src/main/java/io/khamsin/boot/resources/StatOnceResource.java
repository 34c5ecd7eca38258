package io.khamsin.boot.resources;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.concurrent.TimeUnit;

import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.util.StringUtils;

/**
 * A file of the file system whose attributes (whether it exists and is a readable file, its length, its date) come
 * from one {@code stat}, taken when one of them is first asked for and reused for a millisecond: the questions
 * Spring's resource handling asks of it for one request, microseconds apart, cost one system call instead of four
 * ({@code stat} for a directory, {@code access}, {@code stat} for the date and again for the length). A later request
 * reads the file again. Readability is taken from the permissions when everyone may read the file, and asked of the
 * kernel ({@code access}) otherwise.
 */
final class StatOnceResource extends FileSystemResource {

	/** How long one reading of the attributes serves: the span of one request's calls, not of several requests. */
	private static final long FRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private volatile Attributes attributes;

	StatOnceResource(Path path) {
		super(path);
	}

	@Override
	public boolean exists() {
		return attributes().exists();
	}

	@Override
	public boolean isReadable() {
		Attributes attributes = attributes();
		return attributes.exists() && !attributes.directory()
				&& (attributes.everyoneReads() || Files.isReadable(getFilePath()));
	}

	@Override
	public long contentLength() throws IOException {
		return existing("its content length").length();
	}

	@Override
	public long lastModified() throws IOException {
		return existing("its last-modified timestamp").lastModified();
	}

	@Override
	public Resource createRelative(String relativePath) {
		String path = StringUtils.applyRelativePath(getPath(), relativePath);
		return new StatOnceResource(getFilePath().getFileSystem().getPath(path));
	}

	private Attributes existing(String what) throws FileNotFoundException {
		Attributes attributes = attributes();
		if (!attributes.exists()) {
			throw new FileNotFoundException(getDescription() + " cannot be resolved in the file system for checking "
					+ what);
		}
		return attributes;
	}

	private Attributes attributes() {
		long now = System.nanoTime();
		Attributes current = this.attributes;
		if (current == null || now - current.readAt() > FRESH_NANOS) {
			current = Attributes.read(getFilePath(), now);
			this.attributes = current;
		}
		return current;
	}

	/**
	 * What one {@code stat} said of the file.
	 *
	 * @param exists whether it exists (and its directory could be searched)
	 * @param directory whether it is a directory
	 * @param everyoneReads whether its permissions let every user read it
	 * @param length its length in bytes
	 * @param lastModified when it was last modified, in milliseconds since the epoch
	 * @param readAt when this was read, by {@link System#nanoTime()}
	 */
	private record Attributes(boolean exists, boolean directory, boolean everyoneReads, long length,
			long lastModified, long readAt) {

		static Attributes read(Path path, long now) {
			try {
				BasicFileAttributes basic;
				boolean everyoneReads = false;
				try {
					PosixFileAttributes posix = Files.readAttributes(path, PosixFileAttributes.class);
					everyoneReads = posix.permissions().contains(PosixFilePermission.OTHERS_READ);
					basic = posix;
				}
				catch (UnsupportedOperationException ex) {
					basic = Files.readAttributes(path, BasicFileAttributes.class);
				}
				return new Attributes(true, basic.isDirectory(), everyoneReads, basic.size(),
						basic.lastModifiedTime().toMillis(), now);
			}
			catch (IOException | SecurityException ex) {
				// Missing, or the file system can not say: not there, as Spring's file resources answer.
				return new Attributes(false, false, false, 0, 0, now);
			}
		}

	}

}
