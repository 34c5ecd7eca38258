package io.khamsin.container.cache;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PathScopeTests {

	@Test
	void noPatternsMeanEveryPath() {
		assertThat(PathScope.of(List.of()).includes("/anything?at=all")).isTrue();
	}

	@Test
	void aPrefixPatternTakesItsPathAndWhatIsBelowItOnly() {
		PathScope scope = PathScope.of(List.of("/page/**"));
		assertThat(scope.includes("/page/1")).isTrue();
		assertThat(scope.includes("/page/1/reviews?sort=new")).isTrue();
		assertThat(scope.includes("/page")).isTrue();
		assertThat(scope.includes("/page?x=1")).isTrue();
		assertThat(scope.includes("/pages/1")).isFalse();
		assertThat(scope.includes("/plaintext")).isFalse();
		assertThat(scope.includes("http://shop.example/page/2")).isTrue();
		assertThat(scope.includes("http://shop.example/other")).isFalse();
		assertThat(scope.includes("*")).isFalse();
	}

	@Test
	void otherPatternsAreSpringPathPatterns() {
		PathScope scope = PathScope.of(List.of("/static/{file}.css", "/docs/*/index.html"));
		assertThat(scope.includes("/static/site.css")).isTrue();
		assertThat(scope.includes("/static/site.js")).isFalse();
		assertThat(scope.includes("/docs/v1/index.html?x")).isTrue();
		assertThat(scope.includes("/docs/v1/other.html")).isFalse();
	}

	@Test
	void aWrongPatternIsRefusedWithItself() {
		assertThatIllegalArgumentException().isThrownBy(() -> PathScope.of(List.of("/a/**/b/**")))
			.withMessageContaining("/a/**/b/**");
	}

}
