package io.gpumeter.ledger.rest;

import java.util.List;

/** A bulk read of what was held on cards: the window, optionally one cluster, and the cards by UUID. */
public record CardHoldingsRequest(String from, String to, String cluster, List<String> gpus) {
}
