package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodSetAssignment;
import io.gpumeter.common.fact.PodSetRequest;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.fact.WorkloadFact;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Builders of facts for the domain tests; times are written in full so each expectation can be checked by eye. */
final class Facts {

    static final Instant SEEN = Instant.parse("2026-06-01T00:00:00Z");

    private Facts() {
    }

    static Instant t(String iso) {
        return Instant.parse(iso);
    }

    static ObjectCondition cond(String type, String status, String reason, String message, String at) {
        return new ObjectCondition(type, status, reason, message, at == null ? null : t(at));
    }

    static WorkloadFact workload(String uid, String rv, String created, String clusterQueue, Boolean active,
                                 List<ObjectCondition> conditions, List<AdmissionCheckState> checks) {
        return new WorkloadFact(uid, "research", "wl-" + uid, rv, WatchEventType.MODIFIED, SEEN, "kueue.x-k8s.io/v1beta1",
                t(created), null, "research-queue", 0, null, active, new Owner("Job", "job-" + uid),
                List.of(new PodSetRequest("main", 2, Map.of("nvidia.com/gpu", BigDecimal.ONE), null)), clusterQueue,
                clusterQueue == null ? List.of() : List.of(new PodSetAssignment("main", 2, Map.of("nvidia.com/gpu", "a100-80g"),
                        Map.of("nvidia.com/gpu", BigDecimal.valueOf(2)))), conditions, checks, null);
    }

    static PodGroupFact podGroup(String rv, String created, String phase, List<ObjectCondition> conditions) {
        return new PodGroupFact("pg1", "test", "ray-pg", rv, WatchEventType.MODIFIED, SEEN, t(created), null, "kuberay-test-queue",
                3, null, phase, null, null, null, null, conditions);
    }

    static EventFact event(String uid, String kind, String name, String reason, String type, String message, String first,
                           String last, int count) {
        return new EventFact(uid, "ml", name + "." + uid, "1", SEEN, kind, "ml", name, null, reason, type, message,
                "default-scheduler", null, t(first), t(last), count);
    }

    static ContainerState running(String startedAt) {
        return new ContainerState(ContainerState.RUNNING, null, null, null, t(startedAt), null);
    }

    static ContainerState terminated(String reason, int exit, String startedAt, String finishedAt) {
        return new ContainerState(ContainerState.TERMINATED, reason, null, exit, startedAt == null ? null : t(startedAt), t(finishedAt));
    }

    static ContainerState waiting(String reason) {
        return new ContainerState(ContainerState.WAITING, reason, reason + " message", null, null, null);
    }

    static PodStatusFact pod(String uid, String name, String rv, WatchEventType type, String phase, String reason,
                             String readyAt, Owner owner, ContainerState state, ContainerState last, int restarts) {
        return new PodStatusFact(uid, "ml", name, rv, type, SEEN, t("2026-05-01T00:00:00Z"), t("2026-05-01T00:00:10Z"),
                type == WatchEventType.DELETED ? t("2026-05-01T06:00:00Z") : null, "gpu-1", "default-scheduler", phase,
                reason, reason == null ? null : reason + " message", owner, null, null, Map.of("nvidia.com/gpu", 1L),
                readyAt == null ? null : t(readyAt),
                state == null && last == null ? List.of() : List.of(new ContainerStatusFact("main", false, restarts, state, last)));
    }
}
