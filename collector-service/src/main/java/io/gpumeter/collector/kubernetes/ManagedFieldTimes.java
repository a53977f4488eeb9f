package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When each label was last set, according to metadata.managedFields: the time of the entry whose fieldsV1
 * names {@code f:metadata} / {@code f:labels} / {@code f:<key>}. Replayed histories split at these instants.
 */
final class ManagedFieldTimes {

    private ManagedFieldTimes() {
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
