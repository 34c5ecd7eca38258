package io.khamsin.sample;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebInputException;

/**
 * {@code POST /json}: reads an {@link Order} and answers its {@link OrderConfirmation}, about 1 KB each way.
 */
final class OrderHandler {

	private static final BigDecimal TAX_RATE = new BigDecimal("0.20");

	Mono<ServerResponse> confirm(ServerRequest request) {
		return request.bodyToMono(Order.class)
			.switchIfEmpty(Mono.error(() -> new ServerWebInputException("An order is required")))
			.map(OrderHandler::confirmation)
			.flatMap((confirmation) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(confirmation));
	}

	private static OrderConfirmation confirmation(Order order) {
		if (order.items() == null || order.items().isEmpty()) {
			throw new ServerWebInputException("An order needs at least one item");
		}
		List<OrderConfirmation.Line> lines = order.items().stream().map(OrderHandler::line).toList();
		BigDecimal subtotal = lines.stream()
			.map(OrderConfirmation.Line::lineTotal)
			.reduce(BigDecimal.ZERO, BigDecimal::add);
		BigDecimal tax = subtotal.multiply(TAX_RATE).setScale(2, RoundingMode.HALF_EVEN);
		return new OrderConfirmation(order.id(), "ACCEPTED", order.customer(), lines, subtotal, tax,
				subtotal.add(tax), order.currency(), order.shippingAddress(), order.notes());
	}

	private static OrderConfirmation.Line line(Order.Item item) {
		if (item.quantity() <= 0 || item.unitPrice() == null) {
			throw new ServerWebInputException("Item " + item.sku() + " needs a positive quantity and a unit price");
		}
		BigDecimal lineTotal = item.unitPrice().multiply(BigDecimal.valueOf(item.quantity()));
		return new OrderConfirmation.Line(item.sku(), item.name(), item.quantity(), item.unitPrice(), lineTotal);
	}

}
