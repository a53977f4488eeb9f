package io.gpumeter.ledger.rest;

import java.util.List;

/** A bulk usage read: the window, optionally one field, and the cards by UUID. */
public record UsageSeriesRequest(String from, String to, String field, List<String> gpus) {
}
