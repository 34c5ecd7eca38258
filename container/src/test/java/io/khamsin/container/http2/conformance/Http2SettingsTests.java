package io.khamsin.container.http2.conformance;

import java.io.IOException;

import org.junit.jupiter.api.Nested;

import static io.khamsin.container.http2.conformance.ErrorCode.FLOW_CONTROL_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.FRAME_SIZE_ERROR;
import static io.khamsin.container.http2.conformance.ErrorCode.PROTOCOL_ERROR;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_ENABLE_PUSH;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_INITIAL_WINDOW_SIZE;
import static io.khamsin.container.http2.conformance.H2Connection.SETTINGS_MAX_FRAME_SIZE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * h2spec's http2 group 6.5: the SETTINGS frame, its parameters and their synchronization.
 */
class Http2SettingsTests {

	@Nested
	@Section(key = "http2", number = "6.5", title = "SETTINGS")
	class Settings {

		@ConformanceCase("RFC 9113 §6.5")
		void settingsWithAckAndAPayloadIsAConnectionFrameSizeError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.SETTINGS, Frame.FLAG_ACK, 0, new byte[1]);
			connection.expect().connectionError(FRAME_SIZE_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.5")
		void settingsOnAStreamOtherThanZeroIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.SETTINGS, 0, 1, new byte[] { 0, 3, 0, 0, 0, 100 });
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.5")
		void settingsWithALengthThatIsNotAMultipleOfSixIsAConnectionFrameSizeError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.frame(Frame.SETTINGS, 0, 0, new byte[] { 0, 3, 0 });
			connection.expect().connectionError(FRAME_SIZE_ERROR, PROTOCOL_ERROR);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.5.2", title = "Defined SETTINGS Parameters")
	class DefinedParameters {

		@ConformanceCase("RFC 9113 §6.5.2")
		void enablePushOtherThanZeroOrOneIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_ENABLE_PUSH, 2);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.5.2")
		void anInitialWindowSizeAboveTheMaximumIsAConnectionFlowControlError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 2_147_483_648L);
			connection.expect().connectionError(FLOW_CONTROL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.5.2")
		void aMaxFrameSizeBelowTheInitialValueIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_MAX_FRAME_SIZE, 16_383);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.5.2")
		void aMaxFrameSizeAboveTheMaximumIsAConnectionProtocolError(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_MAX_FRAME_SIZE, 16_777_216);
			connection.expect().connectionError(PROTOCOL_ERROR);
		}

		@ConformanceCase("RFC 9113 §6.5.2")
		void anUnknownSettingIsIgnored(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(0xff, 1);
			connection.ping(false, new byte[8]);
			connection.expect().pingAck(new byte[8]);
		}

	}

	@Nested
	@Section(key = "http2", number = "6.5.3", title = "Settings Synchronization")
	class Synchronization {

		@ConformanceCase("RFC 9113 §6.5.3")
		void valuesAreAppliedInTheOrderTheyAppear(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_INITIAL_WINDOW_SIZE, 100, SETTINGS_INITIAL_WINDOW_SIZE, 1);
			connection.expect().settingsAck();
			connection.get(1);
			assertThat(connection.expect().data(1).payload()).as("the first DATA frame in a window of 1").hasSize(1);
		}

		@ConformanceCase("RFC 9113 §6.5.3")
		void settingsIsAcknowledged(Peer peer) throws IOException {
			H2Connection connection = peer.handshake();
			connection.settings(SETTINGS_ENABLE_PUSH, 0);
			connection.expect().settingsAck();
		}

	}

}
