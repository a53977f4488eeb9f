package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodToleration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The scheduler's node filters that decide where a pod may go, as Kubernetes defines them: the node selector (every
 * label equal), the required node affinity (any one term, each requirement of it met) and the taints (every NoSchedule
 * and NoExecute taint tolerated; PreferNoSchedule never excludes a node).
 */
public final class Placement {

    private Placement() {
    }

    /** Whether the node carries the labels the placement selects; a pod without placement goes anywhere. */
    public static boolean selects(PodPlacement placement, String node, Map<String, String> labels) {
        if (placement == null) {
            return true;
        }
        for (Map.Entry<String, String> wanted : placement.nodeSelector().entrySet()) {
            if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
                return false;
            }
        }
        if (placement.nodeAffinity().isEmpty()) {
            return true;
        }
        for (NodeSelectorTerm term : placement.nodeAffinity()) {
            if (matches(term, node, labels)) {
                return true;
            }
        }
        return false;
    }

    /** A term with no requirement matches no node, as in Kubernetes. */
    static boolean matches(NodeSelectorTerm term, String node, Map<String, String> labels) {
        if (term.matchExpressions().isEmpty() && term.matchFields().isEmpty()) {
            return false;
        }
        for (LabelRequirement r : term.matchExpressions()) {
            if (!meets(r, labels.get(r.key()))) {
                return false;
            }
        }
        for (LabelRequirement r : term.matchFields()) {
            if (!"metadata.name".equals(r.key()) || !meets(r, node)) {
                return false;
            }
        }
        return true;
    }

    static boolean meets(LabelRequirement r, String value) {
        String operator = r.operator() == null ? "" : r.operator();
        return switch (operator) {
            case "In" -> value != null && r.values().contains(value);
            case "NotIn" -> value == null || !r.values().contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            case "Gt", "Lt" -> compares(operator, value, r.values());
            default -> false;
        };
    }

    private static boolean compares(String operator, String value, List<String> values) {
        if (value == null || values.size() != 1) {
            return false;
        }
        try {
            long have = Long.parseLong(value);
            long bound = Long.parseLong(values.get(0));
            return "Gt".equals(operator) ? have > bound : have < bound;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The node's NoSchedule and NoExecute taints the pod does not tolerate. */
    public static List<NodeTaint> untolerated(PodPlacement placement, List<NodeTaint> taints) {
        List<PodToleration> tolerations = placement == null ? List.of() : placement.tolerations();
        List<NodeTaint> out = new ArrayList<>();
        for (NodeTaint taint : taints) {
            if ("PreferNoSchedule".equals(taint.effect())) {
                continue;
            }
            if (tolerations.stream().noneMatch(t -> tolerates(t, taint))) {
                out.add(taint);
            }
        }
        return out;
    }

    static boolean tolerates(PodToleration t, NodeTaint taint) {
        if (t.effect() != null && !t.effect().isEmpty() && !t.effect().equals(taint.effect())) {
            return false;
        }
        if ("Exists".equals(t.operator())) {
            return t.key() == null || t.key().isEmpty() || t.key().equals(taint.key());
        }
        String value = t.value() == null ? "" : t.value();
        String taintValue = taint.value() == null ? "" : taint.value();
        return t.key() != null && t.key().equals(taint.key()) && value.equals(taintValue);
    }

    /** The placement as a person reads it: {@code gpu-pool=training, nvidia.com/gpu.product in (A100, H100)}. */
    public static String describe(PodPlacement placement) {
        if (placement == null) {
            return "no node selector or required node affinity";
        }
        List<String> parts = new ArrayList<>();
        placement.nodeSelector().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> parts.add(e.getKey() + "=" + e.getValue()));
        List<String> terms = new ArrayList<>();
        for (NodeSelectorTerm term : placement.nodeAffinity()) {
            List<String> requirements = new ArrayList<>();
            term.matchExpressions().forEach(r -> requirements.add(requirement(r)));
            term.matchFields().forEach(r -> requirements.add(requirement(r)));
            terms.add(String.join(", ", requirements));
        }
        if (terms.size() == 1) {
            parts.add(terms.get(0));
        } else if (!terms.isEmpty()) {
            parts.add(terms.stream().map(t -> "(" + t + ")").collect(Collectors.joining(" or ")));
        }
        return parts.isEmpty() ? "no node selector or required node affinity" : String.join(", ", parts);
    }

    /** The label selector {@code kubectl get nodes -l} takes for the node selector and the first term, or null. */
    public static String labelSelector(PodPlacement placement) {
        if (placement == null) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        placement.nodeSelector().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> parts.add(e.getKey() + "=" + e.getValue()));
        if (!placement.nodeAffinity().isEmpty()) {
            for (LabelRequirement r : placement.nodeAffinity().get(0).matchExpressions()) {
                String op = r.operator() == null ? "" : r.operator();
                switch (op) {
                    case "In" -> parts.add(r.key() + " in (" + String.join(",", r.values()) + ")");
                    case "NotIn" -> parts.add(r.key() + " notin (" + String.join(",", r.values()) + ")");
                    case "Exists" -> parts.add(r.key());
                    case "DoesNotExist" -> parts.add("!" + r.key());
                    default -> { // Gt and Lt have no label selector form
                    }
                }
            }
        }
        return parts.isEmpty() ? null : String.join(",", parts);
    }

    private static String requirement(LabelRequirement r) {
        String op = r.operator() == null ? "" : r.operator();
        return switch (op) {
            case "In" -> r.key() + " in (" + String.join(", ", r.values()) + ")";
            case "NotIn" -> r.key() + " not in (" + String.join(", ", r.values()) + ")";
            case "Exists" -> r.key() + " exists";
            case "DoesNotExist" -> r.key() + " absent";
            case "Gt" -> r.key() + " > " + String.join(", ", r.values());
            case "Lt" -> r.key() + " < " + String.join(", ", r.values());
            default -> r.key() + " " + op + " " + r.values();
        };
    }

    /** A taint as kubectl writes it: {@code key=value:Effect}. */
    public static String taint(NodeTaint taint) {
        return taint.key() + (taint.value() == null || taint.value().isEmpty() ? "" : "=" + taint.value()) + ":" + taint.effect();
    }
}
