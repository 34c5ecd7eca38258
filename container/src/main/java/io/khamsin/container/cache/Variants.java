package io.khamsin.container.cache;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.khamsin.container.compression.AcceptEncoding;
import io.khamsin.container.compression.ContentCoding;

/**
 * The compressed variants of entries whose codings the cache manages: which representation a request gets (the coding its
 * {@code Accept-Encoding} gets among the encoders' by the rule a fresh response is compressed by, else identity), and the making of a variant the first
 * time one is asked for, at once on the loop for a small body, off it for a large one (whose first clients get the
 * identity body meanwhile). A variant no smaller than its identity body is not kept.
 */
final class Variants {

	private static final Logger logger = LoggerFactory.getLogger(DefaultPageCache.class);

	private final List<VariantEncoder> encoders;

	private final List<ContentCoding> codings;

	private final Executor executor;

	private final ByteBufAllocator alloc;

	private final int offLoopSize;

	private final CacheCounters counters;

	private final LocalTier local;

	Variants(List<VariantEncoder> encoders, Executor executor, ByteBufAllocator alloc, int offLoopSize,
			CacheCounters counters, LocalTier local) {
		this.encoders = List.copyOf(encoders);
		this.codings = this.encoders.stream().map(VariantEncoder::coding).toList();
		this.executor = executor;
		this.alloc = alloc;
		this.offLoopSize = offLoopSize;
		this.counters = counters;
		this.local = local;
	}

	/**
	 * The representation of an entry that a request gets.
	 * @param entry the entry
	 * @param request the request
	 * @param head whether it is a {@code HEAD} (which never makes a variant)
	 * @return the representation, or {@code null} when the entry has no identity body left
	 */
	Representation choose(CachedResponse entry, CacheRequest request, boolean head) {
		Representation identity = entry.identity();
		if (!entry.managesCodings() || this.encoders.isEmpty() || identity == null) {
			return identity;
		}
		// The rule a fresh response is compressed by, so that a hit and a render never answer one client differently.
		ContentCoding coding = AcceptEncoding.negotiate(request.headers("accept-encoding"), this.codings);
		if (coding == null) {
			return identity;
		}
		VariantEncoder encoder = this.encoders.get(this.codings.indexOf(coding));
		Representation variant = entry.representation(encoder.coding());
		if (variant != null || head || !entry.claimVariant(encoder.coding())) {
			return (variant != null) ? variant : identity;
		}
		if (identity.length() <= this.offLoopSize) {
			make(entry, encoder);
			variant = entry.representation(encoder.coding());
			return (variant != null) ? variant : identity;
		}
		try {
			this.executor.execute(() -> make(entry, encoder));
		}
		catch (RuntimeException ex) {
			entry.variantMade(encoder.coding(), null);
		}
		return identity;
	}

	private void make(CachedResponse entry, VariantEncoder encoder) {
		if (!entry.tryRetain()) {
			return;
		}
		ByteBuf encoded = null;
		try {
			Representation identity = entry.identity();
			if (identity != null) {
				encoded = encoder.encode(identity.body().duplicate(), this.alloc);
				if (encoded.readableBytes() >= identity.length()) {
					// Nothing gained: clients get the identity body.
					encoded.release();
					encoded = null;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Page cache: no {} variant of {}: {}", encoder.coding().token(), entry.key(), ex.toString());
		}
		finally {
			entry.variantMade(encoder.coding(), encoded);
			if (encoded != null) {
				this.counters.add(CacheCounters.VARIANTS, 1);
				this.local.reweigh(entry);
			}
			entry.release();
		}
	}

}
