package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.QuotaLine;
import io.gpumeter.common.fact.WatchEventType;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Cluster-wide QUOTA changes of one Kueue ClusterQueue or Volcano Queue, from every stored version of it in
 * resourceVersion order: per flavor and resource, what it is promised (nominal quota, borrowing and lending limits,
 * Volcano's capability), never what it holds at the moment (reserved, used, borrowed), which moves with every
 * admission. The subject is {@code <kind>/<name>[<flavor>]:<resource>}; a line that appears or goes away is a change
 * from or to nothing. The first version is the baseline.
 */
public final class QuotaChanges {

    /** The kinds whose versions carry quota of their own. */
    public static final Set<QueueObjectKind> KINDS = Set.of(QueueObjectKind.CLUSTER_QUEUE, QueueObjectKind.VOLCANO_QUEUE);

    private QuotaChanges() {
    }

    public static String scope(QueueObjectKind kind, String name) {
        return "queue/" + kind.name() + "/" + name;
    }

    public static List<Change> derive(QueueObjectKind kind, String name, List<QueueObjectFact> versions) {
        String scope = scope(kind, name);
        String label = kind == QueueObjectKind.CLUSTER_QUEUE ? "clusterqueue/" + name : "queue/" + name;
        Map<String, String> promised = null;
        List<Change> out = new ArrayList<>();
        for (QueueObjectFact v : Versions.ordered(versions, QueueObjectFact::resourceVersion, QueueObjectFact::observedAt)) {
            Map<String, String> now = v.type() == WatchEventType.DELETED ? Map.of() : promised(label, v.quotas());
            if (promised != null) {
                Set<String> subjects = new TreeSet<>(promised.keySet());
                subjects.addAll(now.keySet());
                for (String subject : subjects) {
                    String before = promised.get(subject);
                    String after = now.get(subject);
                    if (!Objects.equals(before, after)) {
                        out.add(new Change(scope, null, v.observedAt(), ChangeKind.QUOTA, subject, before, after,
                                label.startsWith("clusterqueue") ? "ClusterQueue " + name : "Queue " + name));
                    }
                }
            }
            promised = now;
        }
        return out;
    }

    private static Map<String, String> promised(String label, List<QuotaLine> lines) {
        Map<String, String> out = new TreeMap<>();
        for (QuotaLine line : lines) {
            if (line == null || line.resource() == null) {
                continue;
            }
            String subject = label + (line.flavor() == null || line.flavor().isBlank() ? "" : "[" + line.flavor() + "]")
                    + ":" + line.resource();
            List<String> parts = new ArrayList<>();
            part(parts, "nominal", line.nominal());
            part(parts, "borrowingLimit", line.borrowingLimit());
            part(parts, "lendingLimit", line.lendingLimit());
            part(parts, "capability", line.capability());
            if (!parts.isEmpty()) {
                out.put(subject, String.join(" ", parts));
            }
        }
        return out;
    }

    private static void part(List<String> parts, String name, BigDecimal value) {
        if (value != null) {
            parts.add(name + "=" + value.stripTrailingZeros().toPlainString());
        }
    }
}
