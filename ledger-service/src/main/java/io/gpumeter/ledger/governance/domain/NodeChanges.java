package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.inventory.domain.NodePools;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The changes of one node, from every stored version of its views, each compared with the one before it in
 * resourceVersion order (never in arrival order): its labels ({@link NodeFact}: driver and CUDA versions, MIG layout,
 * every other label but the heartbeat ones), what it offers ({@link NodeStatusFact}: cordon, allocatable GPU
 * resources; their suite annotations tell the suite's own actions), its GPU-stack pods ({@link StackPodChanges}) and
 * the driver versions the data paths saw where GFD labels none. The first version of each view is the baseline; a
 * node comes and goes with NODE_ADDED (at its creation where its status tells it) and NODE_REMOVED. Every change
 * carries the node's pool at its version ({@link NodePoolTimeline}): a node relabelled into another pool has its
 * changes before in the one and after in the other.
 */
public final class NodeChanges {

    static final String LABELS = "node labels";
    static final String STATUS = "node status";
    static final String CORDONED = "cordoned";
    static final String SCHEDULABLE = "schedulable";

    private final String node;
    private final String scope;
    private final HeartbeatLabels heartbeats;
    private final List<NodeStatusFact> statuses;
    private final List<NodeFact> labelVersions;
    private final NodePoolTimeline pools;
    private final List<Change> out = new ArrayList<>();

    private NodeChanges(String node, List<NodeFact> labels, List<NodeStatusFact> statuses, HeartbeatLabels heartbeats,
                        NodePools pools) {
        this.node = node;
        this.scope = scope(node);
        this.heartbeats = heartbeats;
        this.statuses = Versions.ordered(statuses, NodeStatusFact::resourceVersion, NodeStatusFact::observedAt);
        this.labelVersions = Versions.ordered(labels, NodeFact::resourceVersion, NodeFact::observedAt);
        this.pools = NodePoolTimeline.of(node, labelVersions, this.statuses, pools);
    }

    /** The scope of a node's changes in the book. */
    public static String scope(String node) {
        return "node/" + node;
    }

    public static List<Change> derive(String node, List<NodeFact> labelVersions, List<NodeStatusFact> statusVersions,
                                      List<StackPodFact> stackPods, List<SeenDriver> sightings,
                                      HeartbeatLabels heartbeats, NodePools pools) {
        NodeChanges changes = new NodeChanges(node, labelVersions, statusVersions, heartbeats, pools);
        List<NodeFact> labels = changes.labelVersions;
        changes.lifecycle(labels);
        changes.labels(labels);
        changes.status();
        changes.atTheirInstants(StackPodChanges.derive(node, changes.scope, stackPods));
        boolean gfdDriver = labels.stream().anyMatch(v -> GpuLabels.driverVersion(v.labels()) != null);
        if (!gfdDriver) {
            changes.atTheirInstants(SeenDriverChanges.derive(node, changes.scope, sightings));
        }
        return changes.out;
    }

    /** Changes seen apart from the node's versions (its stack pods, its driver): in its pool at their instants. */
    private void atTheirInstants(List<Change> seen) {
        seen.forEach(c -> out.add(c.inPool(pools.atInstant(c.at()))));
    }

    /**
     * NODE_ADDED once per uid: at its creation where a status version tells it, else at the first version of a uid
     * that follows another (the first uid ever seen is the baseline); NODE_REMOVED at the first deletion of each uid.
     */
    private void lifecycle(List<NodeFact> labels) {
        Map<String, Instant> created = new LinkedHashMap<>();
        Map<String, Instant> firstSeen = new LinkedHashMap<>();
        Map<String, Instant> removed = new LinkedHashMap<>();
        for (NodeStatusFact s : statuses) {
            String uid = Objects.toString(s.uid(), "");
            if (s.createdAt() != null) {
                created.putIfAbsent(uid, s.createdAt());
            }
            seen(uid, s.type(), s.observedAt(), firstSeen, removed);
        }
        for (NodeFact v : labels) {
            seen(Objects.toString(v.uid(), ""), v.type(), v.observedAt(), firstSeen, removed);
        }
        String firstUid = firstSeen.entrySet().stream().min(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        firstSeen.forEach((uid, at) -> {
            Instant addedAt = created.containsKey(uid) ? created.get(uid) : uid.equals(firstUid) ? null : at;
            if (addedAt != null) {
                out.add(new Change(scope, node, addedAt, ChangeKind.NODE_ADDED, null, null, null,
                        created.containsKey(uid) ? STATUS : LABELS, pools.firstOf(uid, addedAt)));
            }
        });
        removed.forEach((uid, at) -> out.add(new Change(scope, node, at, ChangeKind.NODE_REMOVED, null, null, null,
                LABELS, pools.atInstant(at))));
    }

    private static void seen(String uid, WatchEventType type, Instant at, Map<String, Instant> firstSeen,
                             Map<String, Instant> removed) {
        firstSeen.merge(uid, at, (a, b) -> a.isBefore(b) ? a : b);
        if (type == WatchEventType.DELETED) {
            removed.merge(uid, at, (a, b) -> a.isBefore(b) ? a : b);
        }
    }

    private void labels(List<NodeFact> versions) {
        NodeFact previous = null;
        for (NodeFact v : versions) {
            if (v.type() == WatchEventType.DELETED) {
                previous = null;
                continue;
            }
            if (previous != null) {
                compareLabels(previous, v);
            }
            previous = v;
        }
    }

    private void compareLabels(NodeFact before, NodeFact after) {
        Map<String, String> a = before.labels();
        Map<String, String> b = after.labels();
        Instant at = after.observedAt();
        String pool = pools.atVersion(after.resourceVersion(), at);
        add(at, pool, ChangeKind.DRIVER_VERSION, null, GpuLabels.driverVersion(a), GpuLabels.driverVersion(b), LABELS);
        add(at, pool, ChangeKind.CUDA_VERSION, null, GpuLabels.cudaVersion(a), GpuLabels.cudaVersion(b), LABELS);
        add(at, pool, ChangeKind.MIG_LAYOUT, null, GpuLabels.migLayout(a), GpuLabels.migLayout(b), LABELS);
        Set<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        Map<String, String> marksBefore = null;
        Map<String, String> marksAfter = null;
        for (String key : keys) {
            String x = a.get(key);
            String y = b.get(key);
            if (Objects.equals(x, y) || heartbeats.ignored(key) || GpuLabels.DRIVER_KEYS.contains(key)
                    || GpuLabels.CUDA_KEYS.contains(key) || GpuLabels.migKey(key)) {
                continue;
            }
            if (marksBefore == null) {
                marksBefore = marksAt(before.resourceVersion(), before.observedAt());
                marksAfter = marksAt(after.resourceVersion(), after.observedAt());
            }
            String suite = SuiteMarks.label(key, y, marksBefore, marksAfter);
            add(at, pool, ChangeKind.NODE_LABEL, key, x, y, suite == null ? LABELS : suite);
        }
    }

    /** The suite's annotations on the node as of a version of any of its views: those of its last status up to it. */
    private Map<String, String> marksAt(String resourceVersion, Instant observedAt) {
        NodeStatusFact s = VersionKey.latestAtOrBefore(statuses, f -> VersionKey.of(f.resourceVersion(), f.observedAt()),
                VersionKey.of(resourceVersion, observedAt));
        return s == null ? Map.of() : s.suiteAnnotations();
    }

    private void status() {
        NodeStatusFact previous = null;
        for (NodeStatusFact v : statuses) {
            if (v.type() == WatchEventType.DELETED) {
                previous = null;
                continue;
            }
            if (previous != null) {
                Instant at = v.observedAt();
                String pool = pools.atVersion(v.resourceVersion(), at);
                if (previous.unschedulable() != v.unschedulable()) {
                    String suite = SuiteMarks.cordon(v.unschedulable(), previous.suiteAnnotations(), v.suiteAnnotations());
                    add(at, pool, v.unschedulable() ? ChangeKind.NODE_CORDONED : ChangeKind.NODE_UNCORDONED, null,
                            v.unschedulable() ? SCHEDULABLE : CORDONED, v.unschedulable() ? CORDONED : SCHEDULABLE,
                            suite == null ? STATUS : suite);
                }
                Set<String> resources = new TreeSet<>(previous.allocatable().keySet());
                resources.addAll(v.allocatable().keySet());
                for (String resource : resources) {
                    add(at, pool, ChangeKind.GPU_ALLOCATABLE, resource, text(previous.allocatable().get(resource)),
                            text(v.allocatable().get(resource)), STATUS);
                }
            }
            previous = v;
        }
    }

    private void add(Instant at, String pool, ChangeKind kind, String subject, String before, String after,
                     String source) {
        if (!Objects.equals(before, after)) {
            out.add(new Change(scope, node, at, kind, subject, before, after, source, pool));
        }
    }

    private static String text(Long value) {
        return value == null ? null : value.toString();
    }
}
