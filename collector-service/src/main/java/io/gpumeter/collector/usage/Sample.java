package io.gpumeter.collector.usage;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One sample line of the Prometheus text exposition format.
 *
 * @param labels label names to values, sorted by name, unmodifiable
 */
public record Sample(String name, Map<String, String> labels, double value, OptionalLong timestampMs) {

    private static final Class<?> SORTED_VIEW = Collections.unmodifiableSortedMap(new TreeMap<>()).getClass();

    public Sample {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(timestampMs, "timestampMs");
        labels = sorted(labels == null ? Map.of() : labels);
    }

    public Sample(String name, Map<String, String> labels, double value) {
        this(name, labels, value, OptionalLong.empty());
    }

    /** The label's value, or null when the label is absent or empty (exporters print "" for "not known"). */
    public String label(String labelName) {
        String value = labels.get(labelName);
        return value == null || value.isEmpty() ? null : value;
    }

    /** The first of the given labels that has a non-empty value, or null. */
    public String label(String first, String second) {
        String value = label(first);
        return value != null ? value : label(second);
    }

    static Map<String, String> sorted(Map<String, String> labels) {
        // the parser hands over views it built itself; copying each again would double the parse cost
        if (SORTED_VIEW.isInstance(labels) && ((SortedMap<String, String>) labels).comparator() == null) {
            return labels;
        }
        return Collections.unmodifiableSortedMap(new TreeMap<>(labels));
    }
}
