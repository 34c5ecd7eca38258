package io.khamsin.container.http2.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One case of the catalogue, run once per target that can run it with a {@link Peer} for that target as its
 * parameter. The value cites the requirement, such as {@code "RFC 9113 §6.5.2"}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith(TargetInvocations.class)
@interface ConformanceCase {

	String value();

}
