package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How each GPU-stack component serves one node over time, from every version of its pods there in resourceVersion
 * order: COMPONENT_HEALTH when its health there changes (Ready where a pod of it is ready, else CrashLoopBackOff
 * where one is crash-looping, else NotReady where one lives, else Absent), COMPONENT_VERSION when the images the
 * node runs change (those of its ready pod, else of its last one). A pod replaced by a rollout is Absent for as long
 * as the node has none. The component's first state on the node is the baseline.
 */
public final class StackPodChanges {

    private StackPodChanges() {
    }

    static List<Change> derive(String node, String scope, List<StackPodFact> pods) {
        Map<String, List<StackPodFact>> byComponent = new TreeMap<>();
        for (StackPodFact p : pods) {
            if (node.equals(p.node())) {
                byComponent.computeIfAbsent(p.component(), c -> new ArrayList<>()).add(p);
            }
        }
        List<Change> out = new ArrayList<>();
        byComponent.forEach((component, versions) -> component(node, scope, component, versions, out));
        return out;
    }

    private static void component(String node, String scope, String component, List<StackPodFact> versions,
                                  List<Change> out) {
        Map<String, StackPodFact> live = new LinkedHashMap<>();
        ComponentHealth health = null;
        List<String> images = null;
        boolean first = true;
        for (StackPodFact v : Versions.ordered(versions, StackPodFact::resourceVersion, StackPodFact::observedAt)) {
            String pod = v.namespace() + "/" + v.name();
            if (v.type() == WatchEventType.DELETED || ended(v)) {
                live.remove(pod);
            } else {
                live.remove(pod);
                live.put(pod, v);
            }
            ComponentHealth nowHealth = health(live.values());
            List<String> nowImages = running(live.values());
            String source = "pod " + pod;
            if (!first) {
                if (nowHealth != health) {
                    out.add(new Change(scope, node, v.observedAt(), ChangeKind.COMPONENT_HEALTH, component,
                            health.name(), nowHealth.name(), source));
                }
                if (images != null && nowImages != null && !images.equals(nowImages)) {
                    String[] described = ImageVersion.describe(images, nowImages);
                    out.add(new Change(scope, node, v.observedAt(), ChangeKind.COMPONENT_VERSION, component,
                            described[0], described[1], source));
                }
            }
            first = false;
            health = nowHealth;
            if (nowImages != null) {
                images = nowImages;
            }
        }
    }

    /** A pod that ran to its end serves the node no more, though it is not deleted yet. */
    static boolean ended(StackPodFact v) {
        return "Succeeded".equals(v.phase()) || "Failed".equals(v.phase());
    }

    /** The component's health on the node: that of its pod that serves it best ({@link #rank}). */
    static ComponentHealth health(Iterable<StackPodFact> live) {
        ComponentHealth best = ComponentHealth.Absent;
        for (StackPodFact p : live) {
            ComponentHealth h = health(p);
            if (rank(h) < rank(best)) {
                best = h;
            }
        }
        return best;
    }

    /** One pod's health: Ready, else CrashLoopBackOff while its container waits so, else NotReady. */
    public static ComponentHealth health(StackPodFact p) {
        if (p.ready()) {
            return ComponentHealth.Ready;
        }
        return "CrashLoopBackOff".equals(p.waitingReason()) ? ComponentHealth.CrashLoopBackOff : ComponentHealth.NotReady;
    }

    /** Ready first; a crash-looping pod says more of the node than one merely starting, and either more than none. */
    private static int rank(ComponentHealth h) {
        return switch (h) {
            case Ready -> 0;
            case CrashLoopBackOff -> 1;
            case NotReady -> 2;
            case Absent -> 3;
        };
    }

    /** The images of the ready pod the node runs (the last one to change), else of its last pod; null for none. */
    private static List<String> running(Iterable<StackPodFact> live) {
        StackPodFact chosen = null;
        for (StackPodFact p : live) {
            // live keeps its pods in the order they last changed: the last ready one wins, else the last one.
            if (chosen == null || p.ready() || !chosen.ready()) {
                chosen = p;
            }
        }
        return chosen == null || chosen.images().isEmpty() ? null : chosen.images();
    }
}
