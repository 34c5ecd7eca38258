package io.khamsin.container.forwarded;

import java.net.InetAddress;

import io.netty.util.NetUtil;

/**
 * A block of IPv4 or IPv6 addresses in CIDR notation, or a single address. IPv4-mapped IPv6 addresses
 * ({@code ::ffff:10.0.0.1}) are taken as the IPv4 address they carry, on both sides of a match.
 */
final class AddressBlock {

	private final byte[] network;

	private final int prefixLength;

	private AddressBlock(byte[] network, int prefixLength) {
		this.network = network;
		this.prefixLength = prefixLength;
	}

	static AddressBlock parse(String block) {
		if (block == null || block.isBlank()) {
			throw new IllegalArgumentException("an empty entry is not an address block");
		}
		String text = block.trim();
		int slash = text.indexOf('/');
		String address = (slash >= 0) ? text.substring(0, slash) : text;
		byte[] bytes = literal(address);
		if (bytes == null) {
			throw new IllegalArgumentException("'" + block + "' is not an IP address or CIDR block "
					+ "(such as 10.0.0.0/8, 192.168.1.10 or fd00::/8)");
		}
		int bits = bytes.length * 8;
		int prefixLength = bits;
		if (slash >= 0) {
			String length = text.substring(slash + 1);
			if (length.isEmpty() || length.length() > 3 || !length.chars().allMatch((c) -> c >= '0' && c <= '9')
					|| Integer.parseInt(length) > bits) {
				throw new IllegalArgumentException("'" + block + "' has a prefix length that is not from 0 to " + bits);
			}
			prefixLength = Integer.parseInt(length);
		}
		byte[] masked = mask(bytes, prefixLength);
		if (!java.util.Arrays.equals(masked, bytes)) {
			throw new IllegalArgumentException("'" + block + "' has bits set past its prefix length: write "
					+ format(masked) + "/" + prefixLength + " for the block, or the address alone");
		}
		return new AddressBlock(masked, prefixLength);
	}

	boolean contains(InetAddress address) {
		if (address == null) {
			return false;
		}
		byte[] bytes = normalize(address.getAddress());
		if (bytes.length != this.network.length) {
			return false;
		}
		return java.util.Arrays.equals(mask(bytes, this.prefixLength), this.network);
	}

	/**
	 * The bytes of an IP literal (IPv4-mapped IPv6 as IPv4), or {@code null}; never a name lookup. A zone
	 * ({@code fe80::1%eth0}) is not an address of its own, and Netty's validator lets any text follow the
	 * {@code %}, so a literal with one is none.
	 */
	static byte[] literal(String address) {
		String text = address;
		if (text.startsWith("[") && text.endsWith("]")) {
			text = text.substring(1, text.length() - 1);
		}
		if (text.indexOf('%') >= 0 || !NetUtil.isValidIpV4Address(text) && !NetUtil.isValidIpV6Address(text)) {
			return null;
		}
		byte[] bytes = NetUtil.createByteArrayFromIpAddressString(text);
		return (bytes != null) ? normalize(bytes) : null;
	}

	private static byte[] normalize(byte[] bytes) {
		if (bytes.length == 16) {
			for (int i = 0; i < 10; i++) {
				if (bytes[i] != 0) {
					return bytes;
				}
			}
			if (bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff) {
				return new byte[] { bytes[12], bytes[13], bytes[14], bytes[15] };
			}
		}
		return bytes;
	}

	private static byte[] mask(byte[] bytes, int prefixLength) {
		byte[] masked = bytes.clone();
		for (int i = 0; i < masked.length; i++) {
			int keep = Math.max(0, Math.min(8, prefixLength - i * 8));
			masked[i] &= (byte) (0xff << (8 - keep));
		}
		return masked;
	}

	private static String format(byte[] bytes) {
		try {
			return InetAddress.getByAddress(bytes).getHostAddress();
		}
		catch (java.net.UnknownHostException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public String toString() {
		return format(this.network) + "/" + this.prefixLength;
	}

}
