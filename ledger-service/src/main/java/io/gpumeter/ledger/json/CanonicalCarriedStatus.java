package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodToleration;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.gpumeter.common.json.PodVersionFields.*;
import static io.gpumeter.ledger.json.WrittenForm.bool;
import static io.gpumeter.ledger.json.WrittenForm.closes;
import static io.gpumeter.ledger.json.WrittenForm.end;
import static io.gpumeter.ledger.json.WrittenForm.entries;
import static io.gpumeter.ledger.json.WrittenForm.field;
import static io.gpumeter.ledger.json.WrittenForm.instant;
import static io.gpumeter.ledger.json.WrittenForm.integer;
import static io.gpumeter.ledger.json.WrittenForm.objectOrNull;
import static io.gpumeter.ledger.json.WrittenForm.objects;
import static io.gpumeter.ledger.json.WrittenForm.start;
import static io.gpumeter.ledger.json.WrittenForm.string;

/**
 * Reads what a governance view carried by its pod version says beyond it (a bundle's carried entry) only in the form
 * the services write it (PodVersionJson): every field present, in the record's order, no other; instants in the UTC
 * form; integers as integers; booleans as booleans. Anything else answers null, for the mapper's general
 * deserializer to read, as {@link CanonicalPodFact} does for pod versions.
 */
final class CanonicalCarriedStatus {

    private CanonicalCarriedStatus() {
    }

    /**
     * The carried entry whose object starts at the parser's current token ({@code START_OBJECT}), the parser left on
     * its {@code END_OBJECT}; or null at the first token that differs from the written form, the parser left there.
     */
    static CarriedStatus read(JsonParser p, Repeats repeats) throws IOException {
        return WrittenForm.whole(p, q -> carried(q, repeats));
    }

    private static CarriedStatus carried(JsonParser p, Repeats r) throws IOException {
        String reason = r.string(p, REASON);
        String message = r.string(p, MESSAGE);
        String groupName = r.string(p, GROUP_NAME);
        String queueName = r.string(p, QUEUE_NAME);
        Instant deletedAt = instant(p, DELETED_AT, r);
        Instant readyChangedAt = instant(p, READY_CHANGED_AT, r);
        List<ContainerStatusFact> containers = objects(p, CONTAINERS, q -> container(q, r));
        NotScheduled scheduling = scheduling(p, r);
        PodPlacement placement = placement(p, r);
        return new CarriedStatus(reason, message, groupName, queueName, deletedAt, readyChangedAt, containers,
                scheduling, placement);
    }

    private static NotScheduled scheduling(JsonParser p, Repeats r) throws IOException {
        if (!objectOrNull(p, SCHEDULING)) {
            return null;
        }
        NotScheduled scheduling = new NotScheduled(r.string(p, REASON), r.string(p, MESSAGE), instant(p, SINCE, r));
        end(p);
        return scheduling;
    }

    private static PodPlacement placement(JsonParser p, Repeats r) throws IOException {
        if (!objectOrNull(p, PLACEMENT)) {
            return null;
        }
        Map<String, String> selector = entries(p, NODE_SELECTOR, r::text);
        List<NodeSelectorTerm> terms = objects(p, NODE_AFFINITY, q -> new NodeSelectorTerm(
                objects(q, MATCH_EXPRESSIONS, e -> requirement(e, r)), objects(q, MATCH_FIELDS, e -> requirement(e, r))));
        List<PodToleration> tolerations = objects(p, TOLERATIONS, q -> new PodToleration(r.string(q, KEY),
                r.string(q, OPERATOR), r.string(q, VALUE), r.string(q, EFFECT)));
        end(p);
        return new PodPlacement(selector, terms, tolerations);
    }

    private static LabelRequirement requirement(JsonParser p, Repeats r) throws IOException {
        String key = r.string(p, KEY);
        String operator = r.string(p, OPERATOR);
        field(p, VALUES);
        start(p, JsonToken.START_ARRAY);
        List<String> values = new ArrayList<>(2);
        while (p.nextToken() == JsonToken.VALUE_STRING) {
            values.add(r.text(p));
        }
        closes(p, JsonToken.END_ARRAY);
        return new LabelRequirement(key, operator, values);
    }

    private static ContainerStatusFact container(JsonParser p, Repeats r) throws IOException {
        return new ContainerStatusFact(r.string(p, NAME), bool(p, INIT), (int) integer(p, RESTART_COUNT, true),
                state(p, STATE, r), state(p, LAST_STATE, r));
    }

    private static ContainerState state(JsonParser p, SerializableString name, Repeats r) throws IOException {
        if (!objectOrNull(p, name)) {
            return null;
        }
        ContainerState state = new ContainerState(r.string(p, STATE), r.string(p, REASON),
                r.string(p, MESSAGE), exitCode(p), instant(p, STARTED_AT, r), instant(p, FINISHED_AT, r));
        end(p);
        return state;
    }

    private static Integer exitCode(JsonParser p) throws IOException {
        WrittenForm.field(p, EXIT_CODE);
        if (p.nextToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        return (int) integer(p, true);
    }
}
