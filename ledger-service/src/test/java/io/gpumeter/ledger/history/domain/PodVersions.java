package io.gpumeter.ledger.history.domain;

import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Builds pod versions for tests, one lifecycle step at a time. */
public final class PodVersions {

    private final String uid;
    private String namespace = "team-a";
    private String node = "node-1";
    private Map<String, Long> resources = Map.of("nvidia.com/gpu", 1L);
    private List<VgpuGrant> vgpus = List.of();
    private Map<String, String> labels = Map.of();
    private String bindPhase;
    private String hamiNode;

    public PodVersions(String uid) {
        this.uid = uid;
    }

    public PodVersions namespace(String ns) {
        this.namespace = ns;
        return this;
    }

    public PodVersions node(String n) {
        this.node = n;
        return this;
    }

    public PodVersions resources(Map<String, Long> r) {
        this.resources = r;
        return this;
    }

    public PodVersions vgpus(VgpuGrant... grants) {
        this.vgpus = List.of(grants);
        return this;
    }

    /** HAMi's binding annotations: {@code hami.io/bind-phase} and {@code hami.io/vgpu-node}. */
    public PodVersions hami(String phase, String boundNode) {
        this.bindPhase = phase;
        this.hamiNode = boundNode;
        return this;
    }

    public PodVersions labels(Map<String, String> l) {
        this.labels = l;
        return this;
    }

    public PodFact pending(long rv, Instant observed) {
        return fact(rv, WatchEventType.ADDED, observed, null, null, false, null, null);
    }

    public PodFact scheduled(long rv, Instant scheduledAt) {
        return fact(rv, WatchEventType.MODIFIED, scheduledAt, scheduledAt, node, false, null, null);
    }

    public PodFact terminating(long rv, Instant scheduledAt, Instant deletionTimestamp, Instant observed) {
        return fact(rv, WatchEventType.MODIFIED, observed, scheduledAt, node, false, null, deletionTimestamp);
    }

    public PodFact finished(long rv, Instant scheduledAt, Instant finishedAt, Instant deletionTimestamp) {
        return fact(rv, WatchEventType.MODIFIED, finishedAt, scheduledAt, node, true, finishedAt, deletionTimestamp);
    }

    public PodFact deleted(long rv, Instant scheduledAt, boolean terminated, Instant finishedAt, Instant deletionTimestamp,
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
