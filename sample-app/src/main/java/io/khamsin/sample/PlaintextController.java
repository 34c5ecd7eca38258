package io.khamsin.sample;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /plaintext}: the 13 bytes of {@code Hello, World!}, as an annotated controller (the sample's other
 * HTTP routes are functional, so both programming models run on the container). Annotated GET mappings answer
 * HEAD too.
 */
@RestController
class PlaintextController {

	private static final String HELLO = "Hello, World!";

	@GetMapping(path = "/plaintext", produces = MediaType.TEXT_PLAIN_VALUE)
	String plaintext() {
		return HELLO;
	}

}
