package io.khamsin.container.compression;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/** Hands out pooled buffers that cannot grow past the capacity asked for: a coding fails as when memory runs out. */
final class FixedCapacityAllocator extends AbstractByteBufAllocator {

	FixedCapacityAllocator() {
		super(true);
	}

	@Override
	protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
		return PooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, initialCapacity);
	}

	@Override
	protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
		return PooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, initialCapacity);
	}

	@Override
	public boolean isDirectBufferPooled() {
		return true;
	}

}
