package io.gpumeter.alert.service;

import io.gpumeter.alert.domain.ActionResult;

/** How one call to carry out (or undo) an action ended, with a detail for the audit. */
public record Outcome(ActionResult result, String detail) {

    public static Outcome applied(String detail) {
        return new Outcome(ActionResult.APPLIED, detail);
    }

    public static Outcome inPlace(String detail) {
        return new Outcome(ActionResult.ALREADY_IN_PLACE, detail);
    }

    public static Outcome failed(String detail) {
        return new Outcome(ActionResult.FAILED, detail);
    }

    public static Outcome skipped(String detail) {
        return new Outcome(ActionResult.SKIPPED, detail);
    }
}
