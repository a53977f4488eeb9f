package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When an object's fields were last set, according to metadata.managedFields: each label's time (the entry whose
 * fieldsV1 names {@code f:metadata} / {@code f:labels} / {@code f:<key>}), and the version's own (the latest entry).
 * Replayed histories split at these instants rather than at the instant they were replayed.
 */
final class ManagedFieldTimes {

    private ManagedFieldTimes() {
    }

    /**
     * When this version was written: its latest managedFields time, for an object added or modified; {@code seen}
     * where the version names none, for a deletion (written before it happened), or where the time lies after
     * {@code seen} (a clock ahead of ours).
     */
    static Instant written(List<ManagedFieldsEntry> entries, WatchEventType type, Instant seen) {
        if (entries == null || type == WatchEventType.DELETED) {
            return seen;
        }
        Instant latest = null;
        for (ManagedFieldsEntry entry : entries) {
            Instant time = entry == null ? null : Timestamps.parse(entry.getTime(), "metadata.managedFields.time");
            if (time != null && (latest == null || time.isAfter(latest))) {
                latest = time;
            }
        }
        return latest == null || latest.isAfter(seen) ? seen : latest;
    }

    static Map<String, Instant> labelTimes(List<ManagedFieldsEntry> entries) {
        Map<String, Instant> times = new HashMap<>();
        if (entries == null) {
            return times;
        }
        for (ManagedFieldsEntry entry : entries) {
            Instant time = Timestamps.parse(entry.getTime(), "metadata.managedFields.time");
            if (time == null || entry.getFieldsV1() == null) {
                continue;
            }
            Object metadata = entry.getFieldsV1().getAdditionalProperties().get("f:metadata");
            Object labels = metadata instanceof Map<?, ?> m ? m.get("f:labels") : null;
            if (labels instanceof Map<?, ?> owned) {
                for (Object field : owned.keySet()) {
                    String name = String.valueOf(field);
                    if (name.startsWith("f:")) {
                        times.merge(name.substring(2), time, (a, b) -> a.isAfter(b) ? a : b);
                    }
                }
            }
        }
        return times;
    }
}
