package io.khamsin.sample;

/**
 * The web containers that the WebFlux feature tests run against: each test is parameterized over both, so that a
 * feature that works on Boot's default container is shown to work the same on khamsin.
 */
enum Container {

	/**
	 * khamsin, chosen by {@code khamsin-spring-boot-starter}.
	 */
	KHAMSIN(true, "io.khamsin."),

	/**
	 * Boot's default reactive container, chosen when {@code khamsin.enabled=false}.
	 */
	REACTOR_NETTY(false, "org.springframework.boot.reactor.netty.");

	private final boolean khamsinEnabled;

	private final String webServerPackage;

	Container(boolean khamsinEnabled, String webServerPackage) {
		this.khamsinEnabled = khamsinEnabled;
		this.webServerPackage = webServerPackage;
	}

	boolean khamsinEnabled() {
		return this.khamsinEnabled;
	}

	boolean runs(Class<?> webServerType) {
		return webServerType.getName().startsWith(this.webServerPackage);
	}

	/**
	 * The sample app running on this container, started on first use and shared by every test of the run.
	 * @return the running app
	 */
	SampleServer server() {
		return SampleServers.running(this);
	}

}
