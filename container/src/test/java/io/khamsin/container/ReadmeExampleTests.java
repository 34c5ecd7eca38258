package io.khamsin.container;

import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's program that serves a handler without Spring Boot compiles against the engine as it is, so that a
 * user who copies it gets a program that builds.
 */
class ReadmeExampleTests {

	@TempDir
	Path out;

	@Test
	void theProgramWithoutSpringBootCompiles() throws Exception {
		String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
		int section = readme.indexOf("## Without Spring Boot");
		assertThat(section).as("the README's section on the engine without Spring Boot").isNotNegative();
		Matcher java = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
		assertThat(java.find(section)).as("a Java block in that section").isTrue();
		String source = java.group(1);
		assertThat(source).contains("KhamsinServer.create(");
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		StringWriter diagnostics = new StringWriter();
		try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
			JavaFileObject main = new SimpleJavaFileObject(URI.create("string:///Main.java"), JavaFileObject.Kind.SOURCE) {

				@Override
				public CharSequence getCharContent(boolean ignoreEncodingErrors) {
					return source;
				}

			};
			List<String> options = List.of("-d", this.out.toString(), "-classpath", System.getProperty("java.class.path"));
			boolean compiled = compiler.getTask(diagnostics, files, null, options, null, List.of(main)).call();
			assertThat(compiled).as("the README's program compiles: %s", diagnostics).isTrue();
		}
	}

}
