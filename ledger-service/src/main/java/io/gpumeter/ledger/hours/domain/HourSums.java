package io.gpumeter.ledger.hours.domain;

import io.vertx.core.json.JsonArray;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One group's allocated and used card-equivalent seconds over some pieces of a window, added up piece by piece at the
 * scale PostgreSQL summed them to and divided into hours once, as the whole window's SQL would: the sum of exact
 * numerics does not depend on where the window was cut.
 */
public final class HourSums {

    private static final BigDecimal SECONDS_PER_HOUR = BigDecimal.valueOf(3600);

    private final List<String> values;
    private BigDecimal allocated;
    private boolean measured;
    private BigDecimal used = BigDecimal.ZERO;
    private BigDecimal covered = BigDecimal.ZERO;
    private final Set<String> metrics = new TreeSet<>();
    private final Set<UsageSource> sources = EnumSet.noneOf(UsageSource.class);
    private double energyJoules;
    private BigDecimal energyCovered = BigDecimal.ZERO;
    private final Set<String> energySources = new TreeSet<>();

    public HourSums(List<String> values) {
        this.values = List.copyOf(values);
    }

    public List<String> values() {
        return values;
    }

    /** Adds a piece's allocated seconds. */
    public HourSums addAllocated(BigDecimal seconds) {
        allocated = allocated == null ? seconds : allocated.add(seconds);
        return this;
    }

    /** Adds a piece's measured use; metrics and sources comma-separated, or null. */
    public HourSums addUsed(BigDecimal usedSeconds, BigDecimal coveredSeconds, String metricList, String sourceList,
                            double joules, BigDecimal energyCoveredSeconds, String energySourceList) {
        measured = true;
        used = used.add(usedSeconds);
        covered = covered.add(coveredSeconds);
        split(metricList, metrics);
        sources.addAll(UsageSource.parseAll(sourceList));
        energyJoules += joules;
        energyCovered = energyCovered.add(energyCoveredSeconds);
        split(energySourceList, energySources);
        return this;
    }

    /** Adds another piece's sums of the same group. */
    public HourSums add(HourSums other) {
        if (other.allocated != null) {
            addAllocated(other.allocated);
        }
        if (other.measured) {
            measured = true;
            used = used.add(other.used);
            covered = covered.add(other.covered);
            metrics.addAll(other.metrics);
            sources.addAll(other.sources);
            energyJoules += other.energyJoules;
            energyCovered = energyCovered.add(other.energyCovered);
            energySources.addAll(other.energySources);
        }
        return this;
    }

    /** Whether any piece allocated this group anything: the rows of a report are its allocated groups. */
    public boolean allocated() {
        return allocated != null;
    }

    /** The report's row: {@code labels} name the values in order. */
    public GpuHours toGpuHours(List<String> labels) {
        Map<String, String> group = new LinkedHashMap<>();
        for (int i = 0; i < labels.size(); i++) {
            group.put(labels.get(i), values.get(i));
        }
        UsedHours usedHours = measured ? new UsedHours(hours(used), hours(covered), joined(metrics), sources,
                energyJoules, hours(energyCovered), joined(energySources)) : null;
        return GpuHours.of(String.join("/", values), group, hours(allocated), usedHours);
    }

    /** The sums as stored in a day book. */
    public JsonArray toJson() {
        JsonArray out = new JsonArray().add(new JsonArray(List.copyOf(values)))
                .add(allocated == null ? null : allocated.toPlainString());
        if (measured) {
            out.add(new JsonArray().add(used.toPlainString()).add(covered.toPlainString()).add(joined(metrics))
                    .add(joined(sources.stream().map(Enum::name).toList())).add(energyJoules)
                    .add(energyCovered.toPlainString()).add(joined(energySources)));
        }
        return out;
    }

    /** Sums as {@link #toJson} stored them. */
    public static HourSums fromJson(JsonArray json) {
        List<String> values = json.getJsonArray(0).stream().map(String.class::cast).toList();
        HourSums sums = new HourSums(values);
        String allocated = json.getString(1);
        if (allocated != null) {
            sums.addAllocated(new BigDecimal(allocated));
        }
        if (json.size() > 2) {
            JsonArray u = json.getJsonArray(2);
            sums.addUsed(new BigDecimal(u.getString(0)), new BigDecimal(u.getString(1)), u.getString(2), u.getString(3),
                    u.getDouble(4), new BigDecimal(u.getString(5)), u.getString(6));
        }
        return sums;
    }

    private static BigDecimal hours(BigDecimal seconds) {
        return seconds == null ? BigDecimal.ZERO : PgNumeric.divide(seconds, SECONDS_PER_HOUR).stripTrailingZeros();
    }

    private static void split(String list, Set<String> into) {
        if (list != null && !list.isBlank()) {
            into.addAll(Arrays.asList(list.split(",")));
        }
    }

    private static String joined(Iterable<String> names) {
        String out = String.join(",", names);
        return out.isEmpty() ? null : out;
    }
}
