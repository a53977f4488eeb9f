package io.gpumeter.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.TemplateData;
import jakarta.ws.rs.core.MultivaluedMap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The form that records an incident's review, as posted and as shown again: the root-cause class and cause as
 * decided, a summary, and the prevention items — an alert threshold and an admission policy from their fields, the
 * incident kept as a regression case, and any other items (acceptance items, more of each) as the JSON array
 * alert-service takes. The console checks only what it must to build the body; alert-service judges the rest and
 * its refusal names the field.
 *
 * @param more     the other items, as typed (a JSON array)
 * @param problems what the console could not read, each naming its field; empty when the form can be sent
 */
@TemplateData
public record ReviewForm(String rootCauseClass, String cause, String summary, PreventionFields.Threshold threshold,
                         PreventionFields.Admission admission, boolean regression, String regressionNote, String more,
                         List<String> problems) {

    /** The fields alert-service adds to an item when it serves it: its number, its export's path, its expression. */
    private static final List<String> ADDED = List.of("n", "export", "expr");
    private static final TypeReference<Map<String, Object>> FIELDS = new TypeReference<>() {
    };

    /** The root-cause classes as alert-service reads them (their labels). */
    public static final List<String> CLASSES = List.of("control-plane", "data-plane", "workload", "operations-configuration");

    /**
     * A form holding the review recorded before, to record it again (its items as JSON), or, for a first review, the
     * layer and cause the incident's triage reaches now.
     */
    static ReviewForm of(ReviewView recorded, TriageView now, ObjectMapper json) {
        if (recorded == null) {
            return new ReviewForm(now == null || now.layer() == null ? "" : now.layer(), now == null || now.cause() == null ? "" : now.cause(),
                    "", PreventionFields.Threshold.EMPTY, PreventionFields.Admission.EMPTY, false, "", "", List.of());
        }
        List<Map<String, Object>> items = new ArrayList<>();
        for (ReviewView.Item item : recorded.prevention() == null ? List.<ReviewView.Item>of() : recorded.prevention()) {
            // as alert-service took it: without the number, export path and expression it adds when it serves it
            Map<String, Object> fields = new LinkedHashMap<>(json.convertValue(item, FIELDS));
            fields.keySet().removeAll(ADDED);
            items.add(fields);
        }
        String more;
        try {
            more = items.isEmpty() ? "" : json.writerWithDefaultPrettyPrinter().writeValueAsString(items);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return new ReviewForm(blank(recorded.rootCauseClass()), blank(recorded.cause()), blank(recorded.summary()),
                PreventionFields.Threshold.EMPTY, PreventionFields.Admission.EMPTY, false, "", more, List.of());
    }

    static ReviewForm read(MultivaluedMap<String, String> form) {
        List<String> problems = new ArrayList<>();
        String rootCause = PreventionFields.one(form, "rootCauseClass");
        if (!CLASSES.contains(rootCause)) {
            problems.add("rootCauseClass: pick one of " + String.join(", ", CLASSES) + ".");
        }
        String cause = PreventionFields.one(form, "cause");
        if (cause.isEmpty()) {
            problems.add("cause: name the cause as decided (e.g. no-device, xid-79).");
        }
        String summary = PreventionFields.one(form, "summary");
        if (summary.isEmpty()) {
            problems.add("summary: say in a few lines what happened.");
        }
        return new ReviewForm(rootCause, cause, summary, PreventionFields.Threshold.read(form), PreventionFields.Admission.read(form),
                "on".equals(PreventionFields.one(form, "regression")), PreventionFields.one(form, "regressionNote"),
                PreventionFields.one(form, "more"), problems);
    }

    /** The review as alert-service takes it, or null with the problems added when an item cannot be read. */
    String body(ObjectMapper json) {
        List<String> found = new ArrayList<>();
        List<Object> prevention = new ArrayList<>();
        if (threshold.filled()) {
            prevention.add(threshold.item(found));
        }
        if (admission.filled()) {
            prevention.add(admission.item());
        }
        if (regression) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("kind", "REGRESSION_CASE");
            if (!regressionNote.isEmpty()) {
                item.put("note", regressionNote);
            }
            prevention.add(item);
        }
        if (!more.isEmpty()) {
            try {
                // passed on as typed: alert-service reads and judges each item, naming what is wrong
                Object items = json.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).forType(Object.class).readValue(more);
                if (!(items instanceof List<?> list)) {
                    found.add("more items: write a JSON array of items, [ {\"kind\": \"ACCEPTANCE_ITEM\", …} ].");
                } else {
                    prevention.addAll(list);
                }
            } catch (JsonProcessingException e) {
                found.add("more items: not JSON (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ").");
            }
        }
        if (!found.isEmpty()) {
            problems.addAll(found);
            return null;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("rootCauseClass", rootCauseClass);
        body.put("cause", cause);
        body.put("summary", summary);
        body.put("prevention", prevention);
        try {
            return json.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public List<String> functions() {
        return PreventionFields.FUNCTIONS;
    }

    public List<String> aggregates() {
        return PreventionFields.AGGREGATES;
    }

    public List<String> comparisons() {
        return PreventionFields.COMPARISONS;
    }

    public List<String> severities() {
        return PreventionFields.SEVERITIES;
    }

    public List<String> policies() {
        return PreventionFields.POLICIES;
    }

    public List<String> actions() {
        return PreventionFields.ACTIONS;
    }

    private static String blank(String value) {
        return value == null ? "" : value;
    }
}
