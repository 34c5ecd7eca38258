package io.khamsin.sample;

import java.math.BigDecimal;
import java.util.List;

/**
 * An order as a shop's front end posts it to {@code POST /json}.
 *
 * @param id the order's id, chosen by the client
 * @param customer who orders
 * @param items what is ordered
 * @param shippingAddress where it goes
 * @param currency the ISO 4217 code of every price
 * @param notes free text from the customer
 */
record Order(String id, Customer customer, List<Item> items, Address shippingAddress, String currency,
		String notes) {

	record Customer(String id, String name, String email) {
	}

	record Item(String sku, String name, int quantity, BigDecimal unitPrice) {
	}

	record Address(String street, String city, String postalCode, String country) {
	}

}
