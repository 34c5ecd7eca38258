package io.khamsin.boot.cache;

import java.time.Duration;
import java.util.Iterator;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.khamsin.container.cache.SharedTierConfig;
import io.khamsin.container.cache.redis.LettuceSharedTier;

/**
 * The page cache's shared tier on the application's Redis: the {@link RedisClient} of Boot's
 * {@link LettuceConnectionFactory} (its event loops, its client resources and options), with the server, database,
 * credentials and TLS of {@code spring.data.redis.*}, standalone or Sentinel.
 */
final class LettuceSharedTiers {

	private LettuceSharedTiers() {
	}

	static LettuceSharedTier create(LettuceConnectionFactory factory, SharedTierConfig config) {
		if (factory.isClusterAware()) {
			throw new IllegalStateException("The page cache's shared tier runs on standalone Redis or Sentinel, not on "
					+ "Redis Cluster (spring.data.redis.cluster.*): set khamsin.page-cache.shared.enabled=false");
		}
		AbstractRedisClient client = factory.getRequiredNativeClient();
		if (!(client instanceof RedisClient redis)) {
			throw new IllegalStateException("The page cache's shared tier needs a Lettuce RedisClient, and the "
					+ "application's LettuceConnectionFactory has a " + client.getClass().getName()
					+ ": set khamsin.page-cache.shared.enabled=false");
		}
		return LettuceSharedTier.create(redis, uri(factory), config);
	}

	static RedisURI uri(LettuceConnectionFactory factory) {
		RedisURI.Builder uri;
		RedisSentinelConfiguration sentinel = factory.getSentinelConfiguration();
		if (factory.isRedisSentinelAware() && sentinel != null) {
			Iterator<RedisNode> nodes = sentinel.getSentinels().iterator();
			RedisNode first = nodes.next();
			uri = RedisURI.Builder.sentinel(first.getHost(), first.getPort(), sentinel.getMaster().getName());
			while (nodes.hasNext()) {
				RedisNode node = nodes.next();
				uri.withSentinel(node.getHost(), node.getPort());
			}
			uri.withDatabase(sentinel.getDatabase());
			credentials(uri, sentinel.getUsername(), sentinel.getPassword());
		}
		else {
			RedisStandaloneConfiguration standalone = factory.getStandaloneConfiguration();
			uri = RedisURI.Builder.redis(standalone.getHostName(), standalone.getPort())
				.withDatabase(standalone.getDatabase());
			credentials(uri, standalone.getUsername(), standalone.getPassword());
		}
		if (factory.isUseSsl()) {
			uri.withSsl(true).withVerifyPeer(factory.isVerifyPeer()).withStartTls(factory.isStartTls());
		}
		if (factory.getTimeout() > 0) {
			uri.withTimeout(Duration.ofMillis(factory.getTimeout()));
		}
		return uri.build();
	}

	private static void credentials(RedisURI.Builder uri, String username, RedisPassword password) {
		if (password == null || !password.isPresent()) {
			return;
		}
		if (username != null) {
			uri.withAuthentication(username, password.get());
		}
		else {
			uri.withPassword(password.get());
		}
	}

}
