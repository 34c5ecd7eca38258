package io.khamsin.container.http3;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.khamsin.container.metrics.KhamsinMetrics;
import io.khamsin.container.metrics.MetricsConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retry tokens: one bound to the client's address and original connection ID validates, and each Retry asked for
 * and each token refused is counted.
 */
class RetryTokensTests {

	private static final InetSocketAddress CLIENT = new InetSocketAddress("192.0.2.7", 50123);

	private final KhamsinMetrics metrics = KhamsinMetrics.create(MetricsConfig.defaults());

	private final RetryTokens tokens = new RetryTokens(RetryTokens.newKey(),
			this.metrics.reactor(ImmediateEventExecutor.INSTANCE).quic());

	private final ByteBuf dcid = Unpooled.wrappedBuffer(new byte[] { 1, 2, 3, 4, 5, 6, 7, 8 });

	private final ByteBuf token = Unpooled.buffer();

	@AfterEach
	void release() {
		this.dcid.release();
		this.token.release();
	}

	@Test
	void aTokenEchoedFromItsAddressValidatesAndTheRetryIsCounted() {
		assertThat(this.tokens.writeToken(this.token, this.dcid, CLIENT)).isTrue();
		int offset = this.tokens.validateToken(this.token.slice(), CLIENT);
		assertThat(offset).isPositive();
		assertThat(this.token.slice(offset, this.token.readableBytes() - offset)).isEqualTo(this.dcid);
		assertThat(this.metrics.quicTotals().retriesSent()).isEqualTo(1);
		assertThat(this.metrics.quicTotals().tokensRejected()).isZero();
	}

	@Test
	void aTokenFromAnotherAddressOrAlteredIsRefusedAndCounted() {
		this.tokens.writeToken(this.token, this.dcid, CLIENT);
		assertThat(this.tokens.validateToken(this.token.slice(), new InetSocketAddress("192.0.2.7", 50124)))
			.isEqualTo(-1);
		this.token.setByte(this.token.writerIndex() - 1, this.token.getByte(this.token.writerIndex() - 1) ^ 1);
		assertThat(this.tokens.validateToken(this.token.slice(), CLIENT)).isEqualTo(-1);
		assertThat(this.metrics.quicTotals().tokensRejected()).isEqualTo(2);
	}

}
