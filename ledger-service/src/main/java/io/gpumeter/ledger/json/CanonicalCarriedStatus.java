package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;

import java.io.IOException;
import java.time.Instant;
import java.util.List;

import static io.gpumeter.common.json.PodVersionFields.*;
import static io.gpumeter.ledger.json.WrittenForm.bool;
import static io.gpumeter.ledger.json.WrittenForm.end;
import static io.gpumeter.ledger.json.WrittenForm.instant;
import static io.gpumeter.ledger.json.WrittenForm.integer;
import static io.gpumeter.ledger.json.WrittenForm.objectOrNull;
import static io.gpumeter.ledger.json.WrittenForm.objects;
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
        return new CarriedStatus(reason, message, groupName, queueName, deletedAt, readyChangedAt, containers);
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
