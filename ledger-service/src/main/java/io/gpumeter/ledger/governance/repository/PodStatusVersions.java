package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.repository.VersionRelation;
import io.vertx.mutiny.sqlclient.Row;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The governance views of pod versions as {@code ledger.pod_status_version} holds them (V29, ADR 0016): carried by
 * their pod version (its payload and the status fields beside it) or stored on their own. Every read of a pod's
 * governance views goes through this relation, so none misses the half it did not think of.
 */
public final class PodStatusVersions {

    public static final String RELATION = "pod_status_version";
    /** What a view is read from: the pod version and its status fields, or the view stored on its own. */
    public static final String COLUMNS = "convert_to(pod::text, 'UTF8') AS p, convert_to(status::text, 'UTF8') AS s,"
            + " convert_to(governed::text, 'UTF8') AS g";

    private PodStatusVersions() {
    }

    public static VersionRelation<PodStatusFact> relation(ObjectMapper json) {
        return new VersionRelation<>(RELATION, COLUMNS, row -> decode(json, row));
    }

    /** The view of one row of {@link #COLUMNS}. */
    public static PodStatusFact decode(ObjectMapper json, Row row) {
        try {
            var governed = row.getBuffer("g");
            if (governed != null) {
                return json.readValue(governed.getBytes(), PodStatusFact.class);
            }
            PodFact pod = json.readValue(row.getBuffer("p").getBytes(), PodFact.class);
            return json.readValue(row.getBuffer("s").getBytes(), CarriedStatus.class).on(pod);
        } catch (IOException e) {
            throw new IllegalStateException("stored pod status is unreadable", e);
        }
    }

    public static List<PodStatusFact> decode(ObjectMapper json, Iterable<Row> rows) {
        List<PodStatusFact> out = new ArrayList<>();
        for (Row row : rows) {
            out.add(decode(json, row));
        }
        return out;
    }
}
