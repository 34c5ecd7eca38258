package io.khamsin.sample;

import java.math.BigDecimal;
import java.util.List;

/**
 * The answer to an {@link Order}: its priced lines and totals.
 *
 * @param orderId the order's id
 * @param status always {@code ACCEPTED}
 * @param customer who ordered
 * @param lines one per ordered item, with its total
 * @param subtotal the sum of the line totals
 * @param tax the tax on the subtotal
 * @param total subtotal and tax
 * @param currency the ISO 4217 code of every amount
 * @param shippingAddress where it goes
 * @param notes the customer's notes, for the people who pack the order
 */
record OrderConfirmation(String orderId, String status, Order.Customer customer, List<Line> lines,
		BigDecimal subtotal, BigDecimal tax, BigDecimal total, String currency, Order.Address shippingAddress,
		String notes) {

	record Line(String sku, String name, int quantity, BigDecimal unitPrice, BigDecimal lineTotal) {
	}

}
