package io.gpumeter.ledger.domain;

import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Builds pod versions for tests, one lifecycle step at a time. */
final class PodVersions {

    private final String uid;
    private String namespace = "team-a";
    private String node = "node-1";
    private Map<String, Long> resources = Map.of("nvidia.com/gpu", 1L);
    private List<VgpuGrant> vgpus = List.of();
    private Map<String, String> labels = Map.of();
    private String bindPhase;
    private String hamiNode;

    PodVersions(String uid) {
        this.uid = uid;
    }

    PodVersions namespace(String ns) {
        this.namespace = ns;
        return this;
    }

    PodVersions node(String n) {
        this.node = n;
        return this;
    }

    PodVersions resources(Map<String, Long> r) {
        this.resources = r;
        return this;
    }

    PodVersions vgpus(VgpuGrant... grants) {
        this.vgpus = List.of(grants);
        return this;
    }

    /** HAMi's binding annotations: {@code hami.io/bind-phase} and {@code hami.io/vgpu-node}. */
    PodVersions hami(String phase, String boundNode) {
        this.bindPhase = phase;
        this.hamiNode = boundNode;
        return this;
    }

    PodVersions labels(Map<String, String> l) {
        this.labels = l;
        return this;
    }

    PodFact pending(long rv, Instant observed) {
        return fact(rv, WatchEventType.ADDED, observed, null, null, false, null, null);
    }

    PodFact scheduled(long rv, Instant scheduledAt) {
        return fact(rv, WatchEventType.MODIFIED, scheduledAt, scheduledAt, node, false, null, null);
    }

    PodFact terminating(long rv, Instant scheduledAt, Instant deletionTimestamp, Instant observed) {
        return fact(rv, WatchEventType.MODIFIED, observed, scheduledAt, node, false, null, deletionTimestamp);
    }

    PodFact finished(long rv, Instant scheduledAt, Instant finishedAt, Instant deletionTimestamp) {
        return fact(rv, WatchEventType.MODIFIED, finishedAt, scheduledAt, node, true, finishedAt, deletionTimestamp);
    }

    PodFact deleted(long rv, Instant scheduledAt, boolean terminated, Instant finishedAt, Instant deletionTimestamp,
                    Instant observed) {
        return fact(rv, WatchEventType.DELETED, observed, scheduledAt, node, terminated, finishedAt, deletionTimestamp);
    }

    private PodFact fact(long rv, WatchEventType type, Instant observed, Instant scheduledAt, String nodeName,
                         boolean terminated, Instant finishedAt, Instant deletionTimestamp) {
        return new PodFact(uid, namespace, "pod-" + uid, Long.toString(rv), type, observed, null, scheduledAt,
                nodeName, terminated ? "Succeeded" : "Running", "default-scheduler", terminated, finishedAt,
                deletionTimestamp, new Owner("Job", "job-" + uid), labels, resources, vgpus)
                .withHamiBinding(bindPhase, hamiNode);
    }
}
