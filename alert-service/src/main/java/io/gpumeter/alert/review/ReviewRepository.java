package io.gpumeter.alert.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.DriverSightingFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodSetAssignment;
import io.gpumeter.common.fact.PodSetRequest;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QuotaLine;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.VolcanoJobFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.common.triage.InputBundle;
import io.gpumeter.common.triage.Triage;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The reviews, one row per version. A version is written in one statement, under a per-incident transaction lock, so
 * that two identical reviews sent at once store one version and a review is stored whole or not at all.
 */
@ApplicationScoped
// what a row keeps as JSON is read back with the ObjectMapper, outside any REST signature the native build sees
@RegisterForReflection(targets = {IncidentRef.class, GovernanceBatch.class, WorkloadFact.class, QueueObjectFact.class,
        PodGroupFact.class, VolcanoJobFact.class, EventFact.class, PodStatusFact.class, XidFact.class, GpuAddressFact.class,
        LogSignalFact.class, PendingPositionFact.class, NodeStatusFact.class, StackWorkloadFact.class, StackPodFact.class,
        DriverSightingFact.class, Owner.class, PodSetRequest.class, PodSetAssignment.class, ObjectCondition.class,
        AdmissionCheckState.class, QuotaLine.class, ContainerStatusFact.class, ContainerState.class, NodeTaint.class,
        Triage.class, Triage.Subject.class, Triage.Scope.class, Triage.ChangeRef.class, Triage.Recurrence.class,
        Triage.Evidence.class, Triage.Alternative.class, Triage.Fix.class, Triage.Named.class, InputBundle.class,
        FactBundle.class, FactBatch.class, NamespaceFact.class, NodeFact.class, RegisteredGpu.class, PodFact.class,
        VgpuGrant.class, PodClaim.class, UsageBatch.class, UsagePartial.class, UsageSample.class})
public class ReviewRepository {

    private static final String COLUMNS = "incident_id, version, content_hash, root_cause, cause, summary, prevention::text "
            + "AS prevention, reviewer, reviewed_at, incident::text AS incident, triage::text AS triage, triage_note, "
            + "inputs::text AS inputs, inputs_note, (SELECT max(version) FROM alert.incident_review v "
            + "WHERE v.incident_id = r.incident_id) AS versions";

    /** A version about to be written; its number is decided under the lock. */
    public record Draft(String incidentId, ReviewInput decision, String reviewer, Instant reviewedAt,
                        IncidentRef incident, Triage triage, String triageNote, InputBundle inputs,
                        String inputsNote) {
    }

    /** What a write did: the version now newest, and whether this write stored it. */
    public record Written(Review review, boolean created) {
    }

    private final Pool pool;
    private final ObjectMapper json;

    public ReviewRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /** The newest version, or the one asked for. */
    public Uni<Optional<Review>> find(String incidentId, Integer version) {
        String where = version == null ? "ORDER BY version DESC LIMIT 1" : "AND version = $2";
        Tuple args = version == null ? Tuple.of(incidentId) : Tuple.of(incidentId, version);
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM alert.incident_review r WHERE incident_id = $1 " + where)
                .execute(args).map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(review(rows.iterator().next())));
    }

    /**
     * Stores the draft as the next version unless the newest version decided the same (equal content hash): then the
     * newest is answered and nothing is written.
     */
    public Uni<Written> write(Draft d) {
        String hash = d.decision().contentHash();
        return pool.withTransaction(conn -> conn.preparedQuery(
                        "SELECT pg_advisory_xact_lock(hashtext('gpumeter.alert.review'), hashtext($1))")
                .execute(Tuple.of(d.incidentId()))
                .chain(() -> newest(conn, d.incidentId()))
                .chain(newest -> {
                    if (newest.isPresent() && newest.get().contentHash().equals(hash)) {
                        return Uni.createFrom().item(new Written(newest.get(), false));
                    }
                    int version = newest.map(r -> r.version() + 1).orElse(1);
                    ObjectNode decision = d.decision().json();
                    // documents go as text cast to jsonb: a String bound to a jsonb parameter would be stored as one JSON string
                    return conn.preparedQuery("""
                                    INSERT INTO alert.incident_review (incident_id, version, content_hash, root_cause, cause,
                                        summary, prevention, reviewer, reviewed_at, incident, triage, triage_note, inputs,
                                        inputs_note)
                                    VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9, $10::text::jsonb, $11::text::jsonb, $12,
                                        $13::text::jsonb, $14)""")
                            .execute(Tuple.from(Arrays.asList(d.incidentId(), version, hash, d.decision().rootCauseClass(),
                                    d.decision().cause(), d.decision().summary(), decision.get("prevention").toString(),
                                    d.reviewer(), OffsetDateTime.ofInstant(d.reviewedAt(), ZoneOffset.UTC),
                                    write(d.incident()), d.triage() == null ? null : write(d.triage()), d.triageNote(),
                                    d.inputs() == null ? null : write(d.inputs()), d.inputsNote())))
                            .chain(() -> newest(conn, d.incidentId()))
                            .map(stored -> new Written(stored.orElseThrow(), true));
                }));
    }

    /** Which of these incidents have a review. */
    public Uni<Set<String>> reviewed(Collection<String> incidentIds) {
        if (incidentIds.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return pool.preparedQuery("SELECT DISTINCT incident_id FROM alert.incident_review WHERE incident_id = ANY($1)")
                .execute(Tuple.of(incidentIds.toArray(String[]::new)))
                .map(rows -> {
                    Set<String> out = new HashSet<>();
                    rows.forEach(r -> out.add(r.getString("incident_id")));
                    return out;
                });
    }

    private Uni<Optional<Review>> newest(SqlClient conn, String incidentId) {
        return conn.preparedQuery("SELECT " + COLUMNS + " FROM alert.incident_review r WHERE incident_id = $1 "
                        + "ORDER BY version DESC LIMIT 1").execute(Tuple.of(incidentId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(review(rows.iterator().next())));
    }

    private Review review(Row r) {
        ObjectNode decision = json.createObjectNode().put("rootCauseClass", r.getString("root_cause"))
                .put("cause", r.getString("cause")).put("summary", r.getString("summary"));
        decision.set("prevention", read(r.getString("prevention"), JsonNode.class));
        String triage = r.getString("triage");
        String inputs = r.getString("inputs");
        return new Review(r.getString("incident_id"), r.getInteger("version"), r.getInteger("versions"),
                r.getString("content_hash"), ReviewInput.read(decision), r.getString("reviewer"),
                r.getOffsetDateTime("reviewed_at").toInstant(), read(r.getString("incident"), IncidentRef.class),
                triage == null ? null : read(triage, Triage.class), r.getString("triage_note"),
                inputs == null ? null : inputs(inputs), r.getString("inputs_note"));
    }

    /** The inputs as kept: the whole bundle, or — for a version written before it was kept — its governance facts. */
    private InputBundle inputs(String text) {
        JsonNode tree = read(text, JsonNode.class);
        if (tree.has("bundle") || tree.has("usage")) {
            return json.convertValue(tree, InputBundle.class);
        }
        return InputBundle.governanceOnly(json.convertValue(tree, GovernanceBatch.class));
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> T read(String text, Class<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

}
