package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.FailureCause;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The failures one node's own versions show, in resourceVersion order:
 * <ul>
 * <li><b>GPU lost</b>: a card the node registered in one version and not in a later one (an empty registration
 * included: every card vanished) is lost from the version it vanished in, and recovers at the version that registers
 * it again.</li>
 * <li><b>MIG reconfiguration</b>: the node's MIG layout changing — the desired configuration
 * ({@code nvidia.com/mig.config}) or, on nodes without one, the MIG devices GPU feature discovery counts
 * ({@code nvidia.com/mig-<profile>.count}). It recovers when the node reports the layout applied
 * ({@code nvidia.com/mig.config.state=success}) in a later version, or in the same version when the state was not
 * success before; with no state label at all it is applied at once. A {@code failed} state keeps it open, its
 * evidence saying it failed and when, until a later success. Count labels catching up with a configuration
 * change are part of that change.</li>
 * </ul>
 * The first version is the baseline. A node deleted with an incident open ends it without recovery.
 */
public final class NodeIncidents {

    public static final String MIG_CONFIG = "nvidia.com/mig.config";
    public static final String MIG_CONFIG_STATE = "nvidia.com/mig.config.state";
    static final String FAILED = "failed";
    /** How the evidence of a reconfiguration the MIG manager reported failed says so. */
    static final String FAILED_NOTE = "; failed: " + "nvidia.com/mig.config.state=failed at ";
    private static final Pattern MIG_COUNT = Pattern.compile("nvidia\\.com/mig-[^/]+\\.count");

    private NodeIncidents() {
    }

    public static List<Incident> derive(List<NodeFact> nodeVersions) {
        if (nodeVersions.isEmpty()) {
            return List.of();
        }
        List<NodeFact> versions = Versions.ordered(nodeVersions, NodeFact::resourceVersion, NodeFact::observedAt);
        String node = versions.get(0).name();
        Map<String, Incident> incidents = new LinkedHashMap<>();
        Map<String, Incident> lost = new TreeMap<>();
        Incident mig = null;
        NodeFact previous = null;
        for (NodeFact v : versions) {
            Instant at = v.observedAt();
            if (v.type() == WatchEventType.DELETED) {
                for (Incident i : lost.values()) {
                    incidents.put(i.key(), ended(i, at));
                }
                lost.clear();
                if (mig != null) {
                    incidents.put(mig.key(), ended(mig, at));
                    mig = null;
                }
                previous = v;
                continue;
            }
            Set<String> present = uuids(v);
            for (String uuid : List.copyOf(lost.keySet())) {
                if (present.contains(uuid)) {
                    Incident i = lost.remove(uuid);
                    incidents.put(i.key(), recovered(i, at));
                }
            }
            if (previous != null && previous.type() != WatchEventType.DELETED) {
                for (String uuid : uuids(previous)) {
                    if (!present.contains(uuid) && !lost.containsKey(uuid)) {
                        String key = "node/" + node + "/" + FailureCause.GPU_LOST.label() + "/" + uuid + "/" + at;
                        Incident i = new Incident(key, "node", node, FailureCause.GPU_LOST.label(),
                                FailureCause.GPU_LOST.rootCause(), node, null, uuid, null, null, null, at, null, null, 1,
                                "GPU " + uuid + " no longer registered on node " + node + " (resourceVersion "
                                        + v.resourceVersion() + ")");
                        lost.put(uuid, i);
                        incidents.put(key, i);
                    }
                }
                if (mig == null && layoutChanged(previous, v)) {
                    String key = "node/" + node + "/" + FailureCause.MIG_RECONFIGURATION.label() + "/" + at;
                    mig = new Incident(key, "node", node, FailureCause.MIG_RECONFIGURATION.label(),
                            FailureCause.MIG_RECONFIGURATION.rootCause(), node, null, null, null, null, null, at, null,
                            null, 1, "MIG layout " + layout(previous) + " -> " + layout(v));
                    incidents.put(key, mig);
                } else if (mig != null && layoutChanged(previous, v) && configChanged(previous, v)) {
                    // Configured again before the last change was applied: the same reconfiguration, still not done.
                    mig = new Incident(mig.key(), mig.scope(), mig.subject(), mig.cause(), mig.rootCause(), mig.node(), null,
                            null, null, null, null, mig.startedAt(), null, null, mig.occurrences() + 1,
                            mig.evidence() + " -> " + layout(v));
                    incidents.put(mig.key(), mig);
                }
            }
            if (mig != null && FAILED.equals(v.labels().get(MIG_CONFIG_STATE)) && !mig.evidence().contains(FAILED_NOTE)) {
                // The MIG manager gave up on the layout: the reconfiguration stays open, as failed, until a success.
                mig = new Incident(mig.key(), mig.scope(), mig.subject(), mig.cause(), mig.rootCause(), mig.node(), null,
                        null, null, null, null, mig.startedAt(), null, null, mig.occurrences(),
                        mig.evidence() + FAILED_NOTE + at);
                incidents.put(mig.key(), mig);
            }
            if (mig != null && applied(previous, v, mig.startedAt().equals(at))) {
                incidents.put(mig.key(), recovered(mig, at));
                mig = null;
            }
            previous = v;
        }
        return List.copyOf(incidents.values());
    }

    private static Set<String> uuids(NodeFact v) {
        Set<String> out = new TreeSet<>();
        for (RegisteredGpu g : v.gpus()) {
            if (g.uuid() != null && !g.uuid().isBlank()) {
                out.add(g.uuid());
            }
        }
        return out;
    }

    /**
     * A new desired configuration; or, where the node names none (no MIG manager), different MIG device counts.
     * Count labels appearing or changing under an unchanged configuration are discovery catching up, not a change.
     */
    private static boolean layoutChanged(NodeFact before, NodeFact after) {
        String configBefore = before.labels().get(MIG_CONFIG);
        String configAfter = after.labels().get(MIG_CONFIG);
        if (configBefore != null || configAfter != null) {
            return configChanged(before, after);
        }
        return !migCounts(before).equals(migCounts(after));
    }

    private static boolean configChanged(NodeFact before, NodeFact after) {
        return !Objects.equals(before.labels().get(MIG_CONFIG), after.labels().get(MIG_CONFIG));
    }

    /**
     * The layout applied: there is no MIG manager state to wait for, or the manager reports success. In the very
     * version that changed the configuration, a success left over from the previous layout does not count: the
     * manager has not started yet.
     */
    private static boolean applied(NodeFact previous, NodeFact v, boolean changedNow) {
        String state = v.labels().get(MIG_CONFIG_STATE);
        if (state == null) {
            return true;
        }
        boolean leftOver = changedNow && previous != null && "success".equals(previous.labels().get(MIG_CONFIG_STATE));
        return "success".equals(state) && !leftOver;
    }

    private static Map<String, String> migCounts(NodeFact v) {
        Map<String, String> counts = new TreeMap<>();
        v.labels().forEach((k, value) -> {
            if (MIG_COUNT.matcher(k).matches()) {
                counts.put(k.substring("nvidia.com/mig-".length(), k.length() - ".count".length()), value);
            }
        });
        return counts;
    }

    private static String layout(NodeFact v) {
        String config = v.labels().get(MIG_CONFIG);
        if (config != null) {
            return "'" + config + "'";
        }
        List<String> parts = new ArrayList<>();
        migCounts(v).forEach((profile, count) -> parts.add(count + "x" + profile));
        return parts.isEmpty() ? "(none)" : String.join("+", parts);
    }

    private static Incident recovered(Incident i, Instant at) {
        return new Incident(i.key(), i.scope(), i.subject(), i.cause(), i.rootCause(), i.node(), i.gpuPci(), i.gpuUuid(),
                i.namespace(), i.pod(), i.podUid(), i.startedAt(), at, null, i.occurrences(), i.evidence());
    }

    private static Incident ended(Incident i, Instant at) {
        return new Incident(i.key(), i.scope(), i.subject(), i.cause(), i.rootCause(), i.node(), i.gpuPci(), i.gpuUuid(),
                i.namespace(), i.pod(), i.podUid(), i.startedAt(), null, at, i.occurrences(), i.evidence());
    }
}
