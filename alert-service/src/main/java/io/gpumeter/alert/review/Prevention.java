package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.InvalidInput;

/**
 * One thing a review decides so that the incident does not happen again, each exported as what the team applies:
 * an alert threshold as a PrometheusRule, an admission policy as a Kubernetes object, an acceptance item as an
 * acceptance plan, a regression case as a bundle of the incident's inputs.
 */
public sealed interface Prevention permits AlertThreshold, AdmissionPolicy, AcceptanceItem, RegressionCase {

    enum Kind {
        ALERT_THRESHOLD, ADMISSION_POLICY, ACCEPTANCE_ITEM, REGRESSION_CASE
    }

    Kind kind();

    /** The item as stored and served: {@code kind} and the fields it was given, normalised. */
    ObjectNode json();

    /** What the item asks for, in one line of plain text. */
    String describe();

    /** An item of a review body at {@code at} (e.g. {@code prevention[2]}), validated for its kind. */
    static Prevention read(JsonNode item, String at) {
        if (item == null || !item.isObject()) {
            throw new InvalidInput(at, at + " must be an object with a kind: ALERT_THRESHOLD, ADMISSION_POLICY, "
                    + "ACCEPTANCE_ITEM or REGRESSION_CASE");
        }
        return switch (Fields.member(item, "kind", at, Kind.values(), null)) {
            case ALERT_THRESHOLD -> AlertThreshold.read(item, at);
            case ADMISSION_POLICY -> AdmissionPolicy.read(item, at);
            case ACCEPTANCE_ITEM -> AcceptanceItem.read(item, at);
            case REGRESSION_CASE -> RegressionCase.read(item, at);
        };
    }
}
