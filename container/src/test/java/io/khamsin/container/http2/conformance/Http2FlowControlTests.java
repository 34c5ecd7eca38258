package io.khamsin.container.http2.conformance;

import java.io.IOException;

import org.junit.jupiter.api.Nested;

import static io.khamsin.container.http2.conformance.ErrorCode.FLOW_CONTROL_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.FRAME_SIZE_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_INITIAL_WINDOW_SIZE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2spec's http2 group 6.9: WINDOW_UPDATE and the flow-control windows.
 */
class Http2FlowControlTests {

	static final long MAX_WINDOW = 2_147_483_647L;

	@Nested
	@Section(key = "http2", number = "6.9", title = "WINDOW_UPDATE")
	class WindowUpdate {

		@ConformanceCase("RFC 9113 §6.9")
		void aZeroIncrementOnTheConnectionIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.windowUpdate(0, 0);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.9")
		void aZeroIncrementOnAStreamIsAStreamProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").bytes(), false, true);
			connection.windowUpdate(1, 0);
			connection.expect().streamError(1, PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.9")
		void windowUpdateWithALengthOtherThanFourIsAConnectionFrameSizeError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.WINDOW_UPDATE, 0, 0, new byte[] { 0, 0, 1 });
			connection.expect().connectionError(FRAME_SIZE_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.9.1", title = "The Flow-Control Window")
	class FlowControlWindow {

		@ConformanceCase("RFC 9113 §6.9.1")
		void dataFramesStayWithinAWindowOfOneOctet(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 1);
			connection.expect().settingsAck();
			connection.get(1);
			assertThat(connection.expect().data(1).payload()).as("the first DATA frame in a window of 1").hasSize(1);
		}

		@ConformanceCase("RFC 9113 §6.9.1")
		void aConnectionWindowAboveTheMaximumIsAFlowControlGoaway(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.windowUpdate(0, MAX_WINDOW);
			connection.windowUpdate(0, MAX_WINDOW);
			connection.expect().goAway(FLOW_CONTROL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.9.1")
		void aStreamWindowAboveTheMaximumIsAFlowControlReset(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.headers(1, connection.requestBlock("POST").bytes(), false, true);
			connection.windowUpdate(1, MAX_WINDOW);
			connection.windowUpdate(1, MAX_WINDOW);
			connection.expect().rstStream(1, FLOW_CONTROL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.9.2", title = "Initial Flow-Control Window Size")
	class InitialWindowSize {

		@ConformanceCase("RFC 9113 §6.9.2")
		void aNewInitialWindowSizeAppliesToOpenStreams(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 0);
			connection.expect().settingsAck();
			connection.get(1);
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 1);
			assertThat(connection.expect().data(1).payload()).as("the first DATA frame in a window of 1").hasSize(1);
		}

		@ConformanceCase("RFC 9113 §6.9.2")
		void aWindowMadeNegativeBySettingsIsTracked(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 3);
			connection.expect().settingsAck();
			connection.get(1);
			assertThat(connection.expect().data(1).payload()).as("the first DATA frame in a window of 3").hasSize(3);
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 2);
			connection.expect().settingsAck();
			// The window is now 2 - 3 = -1; an increment of 2 leaves room for one octet.
			connection.windowUpdate(1, 2);
			assertThat(connection.expect().data(1).payload()).as("the DATA frame in a window of -1 + 2").hasSize(1);
		}

		@ConformanceCase("RFC 9113 §6.9.2")
		void anInitialWindowSizeAboveTheMaximumIsAConnectionFlowControlError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.SETTINGS, 0, 0, new byte[] { 0, 4, (byte) 0x80, 0, 0, 0 });
			connection.expect().connectionError(FLOW_CONTROL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.9.2")
		@Requires(Capability.SETTINGS_WINDOW_OVERFLOW_CONNECTION_ERROR)
		void anInitialWindowSizeThatPushesAnOpenStreamWindowAboveTheMaximumIsAConnectionFlowControlError(Peer peer)
				throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 0);
			connection.expect().settingsAck();
			// A POST whose body never ends: a GET may be answered, and its stream closed, before the SETTINGS arrive.
			connection.headers(1, connection.requestBlock("POST").bytes(), false, true);
			connection.windowUpdate(1, MAX_WINDOW);
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 1);
			connection.expect().connectionError(FLOW_CONTROL_ERROR);
		}

	}

}
