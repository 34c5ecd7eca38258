package io.khamsin.container.cache.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.cache.Purge;
import io.khamsin.container.cache.SharedTier;
import io.khamsin.container.cache.SharedTierConfig;

/**
 * The page cache's shared tier on Redis (standalone or Sentinel), through Lettuce's non-blocking API only: one
 * connection for entries, one for the purge channel. An entry is a string key under the configured prefix, written
 * with its lifetime ({@code PX}) by a script that also adds it to a set per tag and keeps each tag set alive at
 * least as long as its entries. A purge removes its entries ({@code SCAN} by pattern, or the tag's set), then
 * {@code PUBLISH}es itself; every instance drops the entries from its memory when it hears it.
 * <p>
 * Connections are made asynchronously and made again after a failure, so an instance starts, and serves from its
 * local tier, while Redis is down; Lettuce reconnects (and resubscribes) a connection that was up.
 */
public final class LettuceSharedTier implements SharedTier {

	private static final Logger logger = LoggerFactory.getLogger(LettuceSharedTier.class);

	private static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);

	/** How long a failed subscription to the purge channel waits before it is made again. */
	static final Duration RESUBSCRIBE_INTERVAL = Duration.ofSeconds(1);

	// KEYS[1] the entry, KEYS[2..] its tag sets; ARGV[1] the entry, ARGV[2] its lifetime in milliseconds.
	private static final String PUT = "redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) "
			+ "for i = 2, #KEYS do redis.call('SADD', KEYS[i], KEYS[1]) "
			+ "if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end end "
			+ "return 1";

	private static final int SCAN_COUNT = 500;

	private final RedisClient client;

	private final RedisURI uri;

	private final String prefix;

	private final String channel;

	private final boolean ownsClient;

	private final List<Consumer<Purge>> listeners = new CopyOnWriteArrayList<>();

	private volatile CompletableFuture<StatefulRedisConnection<String, byte[]>> connection;

	private volatile StatefulRedisPubSubConnection<String, byte[]> subscription;

	private volatile boolean closed;

	private LettuceSharedTier(RedisClient client, RedisURI uri, SharedTierConfig config, boolean ownsClient) {
		this.client = client;
		this.uri = uri;
		this.prefix = config.keyPrefix();
		this.channel = config.purgeChannel();
		this.ownsClient = ownsClient;
		this.connection = connect();
		subscribe();
	}

	/**
	 * A shared tier on a client the application owns (for Boot, the one its {@code spring.data.redis.*} configure).
	 * @param client the client
	 * @param uri where Redis is
	 * @param config the shared tier's settings
	 * @return the tier; closing it closes its connections, not the client
	 */
	public static LettuceSharedTier create(RedisClient client, RedisURI uri, SharedTierConfig config) {
		if (client == null || uri == null || config == null) {
			throw new IllegalArgumentException("client, uri and config must not be null");
		}
		return new LettuceSharedTier(client, uri, config, false);
	}

	/**
	 * A shared tier with a client of its own.
	 * @param uri where Redis is, such as {@code redis://localhost:6379}
	 * @param config the shared tier's settings
	 * @return the tier; closing it shuts its client down
	 */
	public static LettuceSharedTier create(RedisURI uri, SharedTierConfig config) {
		return new LettuceSharedTier(RedisClient.create(uri), uri, config, true);
	}

	private CompletableFuture<StatefulRedisConnection<String, byte[]>> connect() {
		return this.client.connectAsync(CODEC, this.uri).toCompletableFuture();
	}

	private CompletableFuture<RedisAsyncCommands<String, byte[]>> commands() {
		CompletableFuture<StatefulRedisConnection<String, byte[]>> connection = this.connection;
		if (connection.isCompletedExceptionally() && !this.closed) {
			// The first connection never came up; the cache's retry interval paces how often this runs.
			synchronized (this) {
				if (this.connection == connection) {
					this.connection = connect();
				}
				connection = this.connection;
			}
		}
		return connection.thenApply(StatefulRedisConnection::async);
	}

	private void subscribe() {
		if (this.closed) {
			return;
		}
		this.client.connectPubSubAsync(CODEC, this.uri).toCompletableFuture().thenCompose((pubSub) -> {
			pubSub.addListener(new RedisPubSubAdapter<>() {

				@Override
				public void message(String channel, byte[] message) {
					heard(message);
				}

			});
			this.subscription = pubSub;
			if (this.closed) {
				pubSub.closeAsync();
			}
			return pubSub.async().subscribe(this.channel).toCompletableFuture();
		}).whenComplete((ok, error) -> {
			if (error != null && !this.closed) {
				logger.warn("The page cache could not subscribe to its purge channel {} on {} ({}); trying again in {}",
						this.channel, this.uri.toURI(), error.toString(), RESUBSCRIBE_INTERVAL);
				StatefulRedisPubSubConnection<String, byte[]> failed = this.subscription;
				this.subscription = null;
				if (failed != null) {
					failed.closeAsync();
				}
				this.client.getResources()
					.eventExecutorGroup()
					.schedule(this::subscribe, RESUBSCRIBE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
			}
		});
	}

	private void heard(byte[] message) {
		Purge purge;
		try {
			purge = Purge.decode(message);
		}
		catch (IllegalArgumentException ex) {
			logger.debug("Ignoring a message on the purge channel {}: {}", this.channel, ex.getMessage());
			return;
		}
		for (Consumer<Purge> listener : this.listeners) {
			try {
				listener.accept(purge);
			}
			catch (RuntimeException ex) {
				logger.warn("A listener of page-cache purges failed on {}", purge, ex);
			}
		}
	}

	/** @return whether the purge channel is subscribed now */
	boolean isSubscribed() {
		StatefulRedisPubSubConnection<String, byte[]> subscription = this.subscription;
		return subscription != null && subscription.isOpen();
	}

	@Override
	public CompletionStage<byte[]> get(String key) {
		return commands().thenCompose((redis) -> redis.get(this.prefix + key));
	}

	@Override
	public CompletionStage<Void> put(String key, byte[] value, Duration ttl, Collection<String> tags) {
		String[] keys = new String[1 + tags.size()];
		keys[0] = this.prefix + key;
		int i = 1;
		for (String tag : tags) {
			keys[i++] = tagKey(tag);
		}
		byte[] millis = Long.toString(Math.max(1, ttl.toMillis())).getBytes(StandardCharsets.US_ASCII);
		return commands().thenCompose((redis) -> redis.<Long>eval(PUT, ScriptOutputType.INTEGER, keys, value, millis))
			.thenApply((ok) -> null);
	}

	@Override
	public CompletionStage<Long> purge(Purge purge) {
		return commands().thenCompose((redis) -> remove(redis, purge)
			.thenCompose((removed) -> redis.publish(this.channel, purge.encode()).thenApply((listeners) -> removed)));
	}

	private CompletableFuture<Long> remove(RedisAsyncCommands<String, byte[]> redis, Purge purge) {
		if (purge.kind() == Purge.Kind.TAG) {
			String tagKey = tagKey(purge.value());
			return redis.smembers(tagKey).toCompletableFuture().thenCompose((members) -> {
				List<String> keys = new ArrayList<>(members.size() + 1);
				for (byte[] member : members) {
					keys.add(new String(member, StandardCharsets.UTF_8));
				}
				keys.add(tagKey);
				return redis.del(keys.toArray(new String[0])).toCompletableFuture()
					.thenApply((removed) -> Math.max(0, removed - 1));
			});
		}
		String value = purge.value();
		String pattern = switch (purge.kind()) {
			case KEY -> value.startsWith("/") ? this.prefix + "*" : this.prefix + glob(value) + "#*";
			case PREFIX -> value.startsWith("/") ? this.prefix + "*" : this.prefix + glob(value) + "*";
			default -> this.prefix + "*";
		};
		return scan(redis, purge, ScanArgs.Builder.matches(pattern).limit(SCAN_COUNT), ScanCursor.INITIAL, 0);
	}

	private CompletableFuture<Long> scan(RedisAsyncCommands<String, byte[]> redis, Purge purge, ScanArgs args,
			ScanCursor cursor, long removed) {
		return redis.scan(cursor, args).toCompletableFuture().thenCompose((page) -> {
			List<String> keys = matching(page, purge);
			CompletableFuture<Long> deleted = keys.isEmpty() ? CompletableFuture.completedFuture(0L)
					: redis.del(keys.toArray(new String[0])).toCompletableFuture();
			return deleted.thenCompose((count) -> page.isFinished() ? CompletableFuture.completedFuture(removed + count)
					: scan(redis, purge, args, page, removed + count));
		});
	}

	private List<String> matching(KeyScanCursor<String> page, Purge purge) {
		List<String> keys = new ArrayList<>();
		for (String key : page.getKeys()) {
			if (purge.kind() == Purge.Kind.ALL) {
				keys.add(key);
				continue;
			}
			int separator = key.indexOf('#', this.prefix.length());
			if (!key.startsWith(this.prefix + "tag:") && separator > 0
					&& purge.matchesPage(key.substring(this.prefix.length(), separator))) {
				keys.add(key);
			}
		}
		return keys;
	}

	private String tagKey(String tag) {
		return this.prefix + "tag:" + tag;
	}

	/** A Redis glob pattern that matches the text itself. */
	static String glob(String text) {
		StringBuilder glob = new StringBuilder(text.length() + 8);
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				glob.append('\\');
			}
			glob.append(c);
		}
		return glob.toString();
	}

	@Override
	public void onPurge(Consumer<Purge> listener) {
		this.listeners.add(listener);
	}

	@Override
	public void close() {
		this.closed = true;
		StatefulRedisPubSubConnection<String, byte[]> subscription = this.subscription;
		if (subscription != null) {
			subscription.close();
		}
		this.connection.thenAccept(StatefulRedisConnection::close);
		if (this.ownsClient) {
			this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

}
