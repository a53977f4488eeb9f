package io.gpumeter.collector.governance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.VolcanoJobFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;

/** Reduces Volcano PodGroups and Jobs to their queue, gang size and phase. */
final class VolcanoTranslator {

    private VolcanoTranslator() {
    }

    static PodGroupFact podGroup(JsonNode g, WatchEventType type, Instant observedAt) {
        Meta meta = Meta.of(g, "PodGroup", true);
        meta.requireCreated("PodGroup");
        JsonNode spec = g.path("spec");
        JsonNode status = g.path("status");
        return new PodGroupFact(meta.uid(), meta.namespace(), meta.name(), meta.resourceVersion(), type, observedAt,
                meta.createdAt(), meta.deletedAt(), Json.text(spec, "queue"), Json.integer(spec, "minMember"),
                Json.text(spec, "priorityClassName"), Json.text(status, "phase"), Json.integer(status, "running"),
                Json.integer(status, "succeeded"), Json.integer(status, "failed"), meta.owner(),
                Json.conditions(status, "PodGroup"));
    }

    static VolcanoJobFact job(JsonNode j, WatchEventType type, Instant observedAt) {
        Meta meta = Meta.of(j, "Job", true);
        JsonNode spec = j.path("spec");
        JsonNode state = j.path("status").path("state");
        return new VolcanoJobFact(meta.uid(), meta.namespace(), meta.name(), meta.resourceVersion(), type, observedAt,
                meta.createdAt(), meta.deletedAt(), Json.text(spec, "queue"), Json.integer(spec, "minAvailable"),
                Json.text(spec, "schedulerName"), Json.text(state, "phase"), Json.text(state, "reason"),
                Json.parseTime(Json.text(state, "lastTransitionTime"), "status.state.lastTransitionTime"),
                Json.integer(j.path("status"), "retryCount"));
    }
}
