package io.gpumeter.ledger.rest;

import java.util.List;

/**
 * A bulk usage read: the window, optionally one field or several ({@code fields}, such as the activity fields a
 * colour by use reads), the cards by UUID, and optionally a step (an ISO-8601 duration of whole minutes) into whose
 * spans each series is folded.
 */
public record UsageSeriesRequest(String from, String to, String field, List<String> fields, List<String> gpus,
                                 String step) {
}
