package io.khamsin.container.transport;

/**
 * Thrown when a listener cannot bind its port because another socket holds it ({@link TcpListener#bind}, called when
 * a server starts).
 */
public final class PortInUseException extends IllegalStateException {

	private final int port;

	/**
	 * Create the exception.
	 * @param port the port that could not be bound
	 * @param cause why
	 */
	public PortInUseException(int port, Throwable cause) {
		super("Port " + port + " is already in use: stop the process that holds it or choose another port", cause);
		this.port = port;
	}

	/**
	 * The port that could not be bound.
	 * @return the port
	 */
	public int getPort() {
		return this.port;
	}

}
