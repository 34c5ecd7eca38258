package io.khamsin.benchmark.target;

import java.net.Socket;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The JDK's TLS client for the benchmark's own checks of TLS targets: it trusts the run's self-signed certificate
 * (any certificate: the targets are the benchmark's own processes on loopback) and offers TLS 1.3 only.
 */
public final class TrustAll extends X509ExtendedTrustManager {

	private TrustAll() {
	}

	/** @return a TLS 1.3 client context that trusts any server */
	public static SSLContext context() {
		try {
			SSLContext context = SSLContext.getInstance("TLSv1.3");
			context.init(null, new TrustManager[] { new TrustAll() }, new SecureRandom());
			return context;
		}
		catch (Exception ex) {
			throw new IllegalStateException("the JDK offers no TLS 1.3 client: " + ex.getMessage(), ex);
		}
	}

	@Override
	public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
	}

	@Override
	public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
	}

	@Override
	public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
	}

	@Override
	public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
	}

	@Override
	public void checkClientTrusted(X509Certificate[] chain, String authType) {
	}

	@Override
	public void checkServerTrusted(X509Certificate[] chain, String authType) {
	}

	@Override
	public X509Certificate[] getAcceptedIssuers() {
		return new X509Certificate[0];
	}

}
