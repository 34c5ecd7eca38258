package io.khamsin.container.http2.conformance;

/**
 * What a case needs of a target beyond what every target runs: rules that Netty's HTTP/2 codec does not enforce
 * by configuration alone, so that a server on it must add a handler of its own. A target declares the ones it
 * handles; the cases that need one run only against the targets that declare it.
 */
enum Capability {

	/** Placeholder until the catalogue has run against the reference. */
	NONE

}
