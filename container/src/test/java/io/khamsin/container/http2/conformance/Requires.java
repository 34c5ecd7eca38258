package io.khamsin.container.http2.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The capabilities a case needs: it runs against the targets that declare all of them, and the summary lists it
 * as not run, with the reason, for the others.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@interface Requires {

	Capability[] value();

}
