package io.khamsin.container.metrics;

/**
 * The tags of one latency histogram.
 *
 * @param protocol the protocol
 * @param status the status class, {@code 1xx} to {@code 5xx}
 * @param route the route: a pattern such as {@code /page/{id}}, or {@code fixed}, {@code cache},
 * {@code static}, {@code other}
 * @param path the path through the engine
 */
public record LatencyKey(Protocol protocol, String status, String route, RequestPath path) {

	private static final Protocol[] PROTOCOLS = Protocol.values();

	private static final RequestPath[] PATHS = RequestPath.values();

	static final int STATUS_CLASSES = 5;

	/**
	 * The index of a combination of tags among {@code routes * 5 * 3 * 3}.
	 */
	static int index(Protocol protocol, int status, Route route, RequestPath path) {
		return ((route.index() * STATUS_CLASSES + statusClass(status)) * PATHS.length + path.ordinal())
				* PROTOCOLS.length + protocol.ordinal();
	}

	static int count(int routes) {
		return routes * STATUS_CLASSES * PATHS.length * PROTOCOLS.length;
	}

	static int statusClass(int status) {
		int statusClass = status / 100 - 1;
		return (statusClass < 0) ? 0 : Math.min(statusClass, STATUS_CLASSES - 1);
	}

	static LatencyKey of(int index, RouteTable routes) {
		Protocol protocol = PROTOCOLS[index % PROTOCOLS.length];
		int rest = index / PROTOCOLS.length;
		RequestPath path = PATHS[rest % PATHS.length];
		rest /= PATHS.length;
		int statusClass = rest % STATUS_CLASSES;
		Route route = routes.route(rest / STATUS_CLASSES);
		return new LatencyKey(protocol, (statusClass + 1) + "xx", (route != null) ? route.name() : "other", path);
	}

}
