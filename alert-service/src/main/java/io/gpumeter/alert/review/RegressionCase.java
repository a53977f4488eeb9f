package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Set;

/**
 * Keep the incident as a case the suite must triage the same way again: every input its triage read, redacted to the
 * incident's tenant, frozen when the review is written.
 *
 * @param note why this case matters, for whoever replays it (optional)
 */
public record RegressionCase(String note) implements Prevention {

    static final int MAX_NOTE = 500;

    static RegressionCase read(JsonNode item, String at) {
        Fields.object(item, at, Set.of("kind", "note"), "kind and an optional note");
        return new RegressionCase(Fields.text(item, "note", at, false, MAX_NOTE));
    }

    @Override
    public Kind kind() {
        return Kind.REGRESSION_CASE;
    }

    @Override
    public ObjectNode json() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("kind", kind().name());
        if (note != null) {
            o.put("note", note);
        }
        return o;
    }

    @Override
    public String describe() {
        return "a regression case: the incident's inputs, redacted to its tenant, replayed must triage to the same cause"
                + (note == null ? "" : " (" + note + ")");
    }
}
