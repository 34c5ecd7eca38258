package io.khamsin.container.engine;

/**
 * User event fired on every open connection when a graceful shutdown starts: an idle connection closes at
 * once, a busy one finishes its in-flight request, answers it with {@code Connection: close} when it still
 * can, and then closes.
 */
public final class DrainEvent {

	/** The only instance. */
	public static final DrainEvent INSTANCE = new DrainEvent();

	private DrainEvent() {
	}

	@Override
	public String toString() {
		return "DrainEvent";
	}

}
