package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.fact.WatchEventType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Cluster-wide COMPONENT_VERSION of one GPU-stack component: the images its DaemonSets or Deployments roll out, from
 * every stored version of them in resourceVersion order. A component of several workloads (the same component in two
 * namespaces) reads as the images of all of them; one deleted to the last has none. The first version is the
 * baseline.
 */
public final class ComponentChanges {

    private ComponentChanges() {
    }

    public static String scope(String component) {
        return "component/" + component;
    }

    public static List<Change> derive(String component, List<StackWorkloadFact> versions) {
        String scope = scope(component);
        Map<String, List<String>> live = new TreeMap<>();
        List<String> images = null;
        boolean first = true;
        List<Change> out = new ArrayList<>();
        for (StackWorkloadFact v : Versions.ordered(versions, StackWorkloadFact::resourceVersion,
                StackWorkloadFact::observedAt)) {
            String workload = v.namespace() + "/" + v.name();
            if (v.type() == WatchEventType.DELETED) {
                live.remove(workload);
            } else {
                live.put(workload, v.images());
            }
            List<String> now = new ArrayList<>();
            live.values().forEach(now::addAll);
            List<String> nowImages = now.isEmpty() ? null : now;
            if (!first && !Objects.equals(images, nowImages)) {
                String[] described = ImageVersion.describe(images == null ? List.of() : images,
                        nowImages == null ? List.of() : nowImages);
                out.add(new Change(scope, null, v.observedAt(), ChangeKind.COMPONENT_VERSION, component, described[0],
                        described[1], v.kind() + " " + workload));
            }
            first = false;
            images = nowImages;
        }
        return out;
    }
}
