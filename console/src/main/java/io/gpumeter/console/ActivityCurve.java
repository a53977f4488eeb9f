package io.gpumeter.console;

import io.gpumeter.common.fact.UsageField;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A card's or a pod's activity minute by minute, read from the per-field points an answer carries by the suite's
 * one rule ({@link UsageField#ACTIVITY}: SM_ACTIVE where the minute has it, else GR_ENGINE_ACTIVE, else GPU_UTIL),
 * so that a page draws the activity the ledger's idle hours and the idle alert judge.
 */
final class ActivityCurve {

    /** One minute's activity, as a ratio 0..1 ({@link UsageField.Unit#RATIO}, as every activity field is). */
    record Point(String minute, UsageField.Reading reading) {

        /** The ratio in percent, to one decimal. */
        double percent() {
            return Math.round(reading.value() * 1000) / 10.0;
        }
    }

    /** Minute (RFC 3339, as the answer writes it; one service writes them alike, so they sort) → field → mean. */
    private final Map<String, Map<UsageField, Double>> minutes = new TreeMap<>();

    /** A point of {@code field}; a field that is no activity field is left out. */
    ActivityCurve add(String field, String minute, double mean) {
        UsageField.ACTIVITY.stream().filter(f -> f.name().equals(field)).findFirst().ifPresent(f -> {
            if (minute != null) {
                minutes.computeIfAbsent(minute, m -> new EnumMap<>(UsageField.class)).put(f, mean);
            }
        });
        return this;
    }

    List<Point> points() {
        List<Point> points = new ArrayList<>();
        minutes.forEach((minute, measured) -> UsageField.activity(measured::get)
                .ifPresent(reading -> points.add(new Point(minute, reading))));
        return points;
    }

    /** The fields the minutes were read from, in the rule's order: {@code SM_ACTIVE}, or {@code SM_ACTIVE/GPU_UTIL}. */
    String fields() {
        Set<UsageField> used = EnumSet.noneOf(UsageField.class);
        points().forEach(p -> used.add(p.reading().field()));
        return UsageField.ACTIVITY.stream().filter(used::contains).map(Enum::name).collect(Collectors.joining("/"));
    }

    /** The mean of the minutes' activity, empty when no minute measured any. */
    OptionalDouble mean() {
        return points().stream().mapToDouble(p -> p.reading().value()).average();
    }
}
