package io.khamsin.container.http2.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The group a class of cases counts under in the summary, named as h2spec names its groups: a key
 * ({@code http2}, {@code hpack}, {@code generic}, or {@code abuse} for the attacks h2spec does not cover), the section
 * number in h2spec's tree (RFC 7540 and RFC 7541 numbering) and its title.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@interface Section {

	String key();

	String number();

	String title();

}
