package io.gpumeter.ledger.hours.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A dimension GPU-hours can be grouped by; the column is fixed here, never taken from user input. DAY, WEEK and
 * MONTH are time buckets ({@link TimeBucket}): their column is the label of the bucket a row was split into.
 */
public enum GroupDimension {
    TENANT("tenant"), TEAM("team"), PROJECT("project"), NAMESPACE("namespace"), CLUSTER("cluster"),
    NODE("node"), MODEL("gpu_model"), OWNER("owner_kind", "owner_name"),
    /** One pod's own hours ("namespace/pod"): an acceptance cell is a set of pods, not a namespace or an owner. */
    POD("namespace", "pod"),
    DAY("bucket"), WEEK("bucket"), MONTH("bucket");

    private final String[] columns;

    GroupDimension(String... columns) {
        this.columns = columns;
    }

    /** The SQL expression of this dimension over a table alias ("" for none). */
    public String column(String alias) {
        String prefix = alias.isEmpty() ? "" : alias + ".";
        return columns.length == 1 ? prefix + columns[0] : prefix + columns[0] + " || '/' || " + prefix + columns[1];
    }

    /** True for the time buckets: a window is split at their seams rather than rows grouped by a stored column. */
    public boolean bucket() {
        return this == DAY || this == WEEK || this == MONTH;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static GroupDimension parse(String text) {
        String wanted = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(d -> d.name().equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("must be one of "
                        + Arrays.stream(values()).map(GroupDimension::label).collect(Collectors.joining(", "))
                        + " (comma-separated for several), got '" + text + "'"));
    }
}
