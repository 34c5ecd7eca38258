/**
 * An HTTP/2 conformance suite: h2spec's cases (its {@code generic}, {@code http2} and {@code hpack} groups, with
 * the rules RFC 9113 added since) and the attacks on HTTP/2 servers, each a JUnit case run by a raw-frame client
 * ({@link io.khamsin.container.http2.conformance.H2Connection}) against every
 * {@link io.khamsin.container.http2.conformance.ConformanceTarget}. The summary of a run is written to
 * {@code target/h2-conformance.txt}.
 *
 * <h2>Verdicts</h2>
 * As h2spec judges them ({@link io.khamsin.container.http2.conformance.H2Expectations}): a connection error passes
 * on GOAWAY with an expected code or on the connection closing; a stream error on RST_STREAM for the stream with an
 * expected code, or on a connection error; frames that may come first are passed over. Stricter than h2spec, a
 * GOAWAY or RST_STREAM with another code fails.
 *
 * <h2>What Netty 4.2's codec needs to pass</h2>
 * {@link io.khamsin.container.http2.conformance.NettyReferenceTarget} passes every case it runs with:
 * <pre>
 * Http2FrameCodecBuilder.forServer()
 *     .initialSettings(Http2Settings.defaultSettings()
 *         .maxConcurrentStreams(100)        // advertised: the concurrency cases need a limit to exceed
 *         .maxHeaderListSize(8192)          // advertised: 431 or a reset above it, GOAWAY far above it
 *         .initialWindowSize(65_535)
 *         .maxFrameSize(16_384))
 *     .validateHeaders(true)                // names, values, pseudo-header fields, connection-specific fields, TE
 *     .validateRequiredPseudoHeaders(true)  // :method, :scheme, :path present; off by default, 3 cases fail
 *     .decoderEnforceMaxRstFramesPerWindow(200, 30)   // rapid reset, CVE-2023-44487
 *     .encoderEnforceMaxRstFramesPerWindow(200, 30)   // resets the server is made to send, CVE-2025-8671
 *     .decoderEnforceMaxConsecutiveEmptyDataFrames(2) // empty DATA floods
 *     .encoderEnforceMaxQueuedControlFrames(10_000)   // SETTINGS and PING floods whose answers are not read
 *     .decoderEnforceMaxSmallContinuationFrames(16)   // CONTINUATION floods, CVE-2024-27316
 *     .build();
 * pipeline: codec, Http2MultiplexHandler(stream initializer), a last handler for connection frames and errors
 * </pre>
 * All but {@code validateRequiredPseudoHeaders} are Netty 4.2.18's server defaults, written out so that an upgrade
 * cannot loosen them unseen; with each protection switched off its abuse case fails. Beyond the codec it takes two
 * handlers: on each stream channel, an {@code exceptionCaught} that answers the
 * {@code Http2Exception.StreamException} Http2MultiplexHandler hands it with {@code DefaultHttp2ResetFrame(error)}
 * (Http2FrameCodec does not reset a stream on an inbound stream error; without it 14 cases fail, the stream left
 * open or reset with CANCEL when its channel closes), and on the connection, a last handler that releases the
 * SETTINGS, PING, WINDOW_UPDATE and GOAWAY frames the codec passes on and takes the connection errors it has
 * answered (left to the pipeline's tail each is logged, which made a PING flood logging-bound).
 *
 * <h2>What Netty cannot pass by configuration</h2>
 * The {@link io.khamsin.container.http2.conformance.Capability capabilities}: frames on a stream closed both ways
 * (connection error STREAM_CLOSED), a stream identifier below one already used (connection error PROTOCOL_ERROR),
 * HEADERS on a half-closed (remote) stream (STREAM_CLOSED before field validation), a SETTINGS window change that
 * overflows an open stream (connection error FLOW_CONTROL_ERROR), and a limit on WINDOW_UPDATE floods. Those cases
 * run only against targets that declare them; {@code -Dkhamsin.h2.conformance.all-cases=true} runs them anyway.
 *
 * <h2>Adding a target</h2>
 * A class implementing {@code ConformanceTarget} (start a server answering {@code GET}, {@code HEAD} and
 * {@code POST /} as its Javadoc says, return its {@code Endpoint}, declare its capabilities) and one line in
 * {@link io.khamsin.container.http2.conformance.Targets}.
 */
package io.khamsin.container.http2.conformance;
