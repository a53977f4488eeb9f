package io.gpumeter.slo.domain;

import io.gpumeter.common.problem.InvalidInput;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A validated service level objective over the requests its selector picks: one service's, or a tenant's.
 *
 * @param target the fraction of good events the window must reach, strictly between 0 and 1
 * @param window the rolling window the target applies to
 */
public record SloDefinition(String name, SloSelector selector, Sli sli, Objective objective, BigDecimal target,
                            Duration window) {

    /** Names double as Prometheus label values and URL segments. */
    public static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    public static final Duration MIN_WINDOW = Duration.ofHours(1);

    /** The selected service; null for a tenant selector over all of the tenant's services. */
    public String service() {
        return selector.service();
    }

    /** The selected tenant; null for a service selector. */
    public String tenant() {
        return selector.tenant();
    }

    /** The selected service's namespace, or the namespace a tenant selector is narrowed to; else null. */
    public String namespace() {
        return selector.namespace();
    }

    /** The same definition over another selector, e.g. a legacy service selector pinned to the namespace read. */
    public SloDefinition with(SloSelector other) {
        return new SloDefinition(name, other, sli, objective, target, window);
    }

    /** The window as ISO-8601, in days when it is whole days (P30D rather than PT720H). */
    public String windowText() {
        return window.toSeconds() % 86_400 == 0 ? "P" + window.toDays() + "D" : window.toString();
    }

    /** The share of events allowed to be bad: 1 - target. */
    public BigDecimal errorBudget() {
        return BigDecimal.ONE.subtract(target);
    }

    /** A definition over one service's requests (namespace not named), validated as the general form below. */
    public static SloDefinition of(String name, String service, String sli, BigDecimal percentile,
                                   BigDecimal thresholdMs, String per, boolean hasObjective, BigDecimal target,
                                   String window, Duration maxWindow) {
        return of(name, new SloSelector.Parts(service, null, null), sli, percentile, thresholdMs, per, hasObjective,
                target, window, maxWindow);
    }

    /**
     * Validates the parts of a definition, naming the first field at fault.
     *
     * @param maxWindow the longest window this service evaluates
     * @throws InvalidInput naming the field (dotted for nested fields) and what is accepted
     */
    public static SloDefinition of(String name, SloSelector.Parts selector, String sli, BigDecimal percentile,
                                   BigDecimal thresholdMs, String per, boolean hasObjective, BigDecimal target,
                                   String window, Duration maxWindow) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidInput("name", "name must be 1-63 lower-case letters, digits and '-', starting and"
                    + " ending with a letter or digit, got '" + name + "'");
        }
        SloSelector selected = SloSelector.of(selector.service(), selector.tenant(), selector.namespace());
        Sli parsedSli = Sli.parse(sli);
        Objective objective = objective(parsedSli, percentile, thresholdMs, per, hasObjective);
        if (target == null || target.signum() <= 0 || target.compareTo(BigDecimal.ONE) >= 0) {
            throw new InvalidInput("target", "target must be a fraction strictly between 0 and 1 (0.99 for 99%),"
                    + " got " + target);
        }
        Duration length = window(window, maxWindow);
        return new SloDefinition(name, selected, parsedSli, objective, plain(target), length);
    }

    private static Objective objective(Sli sli, BigDecimal percentile, BigDecimal thresholdMs, String per,
                                       boolean hasObjective) {
        if (!sli.isLatency()) {
            if (hasObjective) {
                throw new InvalidInput("objective", "objective must be left out for AVAILABILITY, whose good"
                        + " events are requests with ok=true");
            }
            return null;
        }
        if (!hasObjective) {
            throw new InvalidInput("objective", "objective is required for " + sli
                    + ": {\"percentile\": 99, \"thresholdMs\": 300, \"per\": \"MINUTE\"}");
        }
        if (percentile == null || percentile.signum() <= 0 || percentile.compareTo(BigDecimal.valueOf(100)) > 0) {
            throw new InvalidInput("objective.percentile", "objective.percentile must be above 0 and at most 100,"
                    + " got " + percentile);
        }
        if (thresholdMs == null || thresholdMs.signum() <= 0
                || thresholdMs.compareTo(BigDecimal.valueOf(LatencyHistograms.MAX_MS)) > 0) {
            throw new InvalidInput("objective.thresholdMs", "objective.thresholdMs must be above 0 and at most "
                    + (long) LatencyHistograms.MAX_MS + " ms, got " + thresholdMs);
        }
        Per unit;
        try {
            unit = Per.parse(per);
        } catch (IllegalArgumentException e) {
            throw new InvalidInput("objective.per", "objective.per " + e.getMessage());
        }
        return new Objective(plain(percentile), plain(thresholdMs), unit);
    }

    /** Without trailing zeros and never in exponent form: 99.0 is 99, 300 stays 300. */
    private static BigDecimal plain(BigDecimal v) {
        BigDecimal stripped = v.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    private static Duration window(String window, Duration maxWindow) {
        Duration length;
        try {
            length = Duration.parse(window == null ? "" : window.strip());
        } catch (RuntimeException e) {
            throw new InvalidInput("window", "window must be an ISO-8601 duration such as P30D or PT6H, got '"
                    + window + "'");
        }
        if (length.compareTo(MIN_WINDOW) < 0 || length.compareTo(maxWindow) > 0
                || length.toSeconds() % 60 != 0 || length.getNano() != 0) {
            throw new InvalidInput("window", "window must be whole minutes from PT1H to " + maxWindow
                    + ", got '" + window + "'");
        }
        return length;
    }
}
