package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;

/**
 * An ACCEPTANCE_ITEM as the body of slo-service's {@code POST /api/v1/acceptance/runs}: a plan named after the
 * incident, over the window asked for, holding the item's cell (and baseline) and its one assertion.
 */
final class AcceptancePlanExport {

    /** slo-service's longest plan name. */
    static final int MAX_NAME = 200;

    private AcceptancePlanExport() {
    }

    static ObjectNode plan(Review review, AcceptanceItem item, Instant from, Instant to) {
        String name = "Incident " + review.incidentId() + ": " + item.assertion().get("name").asText();
        ObjectNode plan = JsonNodeFactory.instance.objectNode()
                .put("name", name.length() > MAX_NAME ? name.substring(0, MAX_NAME).strip() : name)
                .put("from", from.toString()).put("to", to.toString());
        plan.set("cells", item.cells());
        plan.putArray("assertions").add(item.planAssertion());
        return plan;
    }
}
