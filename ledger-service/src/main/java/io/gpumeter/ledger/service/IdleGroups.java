package io.gpumeter.ledger.service;

import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.idle.domain.IdleCauses;
import io.gpumeter.ledger.idle.domain.IdleReport;
import io.gpumeter.ledger.idle.domain.IdleSplit;
import io.gpumeter.ledger.repository.IdleRepository.Card;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The idle split summed per group (card, node, tenant or pod), in key order. */
final class IdleGroups {

    /** The group of time no tenant or pod held; parentheses cannot appear in a label value or a pod's name. */
    static final String UNALLOCATED = "(unallocated)";

    /** What the split can be grouped by. */
    enum By {
        GPU, NODE, TENANT, POD;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether a card's parts are split among its holders: time no one held is then a group of its own. */
        boolean byHolder() {
            return this == TENANT || this == POD;
        }

        static By parse(String text) {
            return Params.oneOf("groupBy", text == null || text.isBlank() ? "gpu" : text, values(), By::label);
        }
    }

    /** Who held a card's part: nobody (all null), a tenant, or a pod of a tenant. */
    record Holder(String tenant, String namespace, String pod) {
        static final Holder NOBODY = new Holder(null, null, null);
    }

    private final By by;
    private final Map<String, Map<String, String>> values = new TreeMap<>();
    private final Map<String, IdleSplit> splits = new HashMap<>();
    private final Map<String, IdleCauses> causes = new HashMap<>();
    private final Map<String, TreeSet<String>> metrics = new HashMap<>();
    private final Map<String, Double> unitJoules = new HashMap<>();
    private final Map<String, Double> idleJoules = new HashMap<>();

    IdleGroups(By by) {
        this.by = by;
    }

    /** Adds a card's part, with what the host says of its not-busy time; metrics the activity fields read. */
    void add(Card card, Holder holder, IdleSplit split, IdleCauses why, String metricList) {
        if (by.byHolder() && split.total().signum() == 0) {
            return;
        }
        String key = key(card, holder);
        splits.merge(key, split, IdleSplit::plus);
        causes.merge(key, why, IdleCauses::plus);
        TreeSet<String> used = metrics.computeIfAbsent(key, k -> new TreeSet<>());
        if (metricList != null) {
            used.addAll(Arrays.asList(metricList.split(",")));
        }
    }

    /** Adds a card's energy held by a holder's units, or by none: the group's idle energy. */
    void addEnergy(Card card, Holder holder, double joules) {
        if (by.byHolder() && joules == 0) {
            return;
        }
        String key = key(card, holder);
        splits.putIfAbsent(key, IdleSplit.ZERO);
        causes.putIfAbsent(key, IdleCauses.NONE);
        metrics.computeIfAbsent(key, k -> new TreeSet<>());
        (holder.tenant() == null ? idleJoules : unitJoules).merge(key, joules, Double::sum);
    }

    /** The group of a card's part, registered on first sight. */
    private String key(Card card, Holder holder) {
        Map<String, String> group = new LinkedHashMap<>();
        switch (by) {
            case GPU -> {
                group.put("cluster", card.cluster());
                group.put("gpu", card.gpuUuid());
            }
            case NODE -> {
                group.put("cluster", card.cluster());
                group.put("node", card.node() == null ? "unknown" : card.node());
            }
            case TENANT -> group.put("tenant", holder.tenant() == null ? UNALLOCATED : holder.tenant());
            case POD -> {
                if (holder.pod() == null) {
                    group.put("pod", UNALLOCATED);
                } else {
                    group.put("cluster", card.cluster());
                    group.put("namespace", holder.namespace());
                    group.put("pod", holder.pod());
                    group.put("tenant", holder.tenant());
                }
            }
        }
        String key = switch (by) {
            case GPU -> card.gpuUuid();
            case POD -> holder.pod() == null ? UNALLOCATED
                    : card.cluster() + "/" + holder.namespace() + "/" + holder.pod();
            default -> String.join("/", group.values());
        };
        values.putIfAbsent(key, group);
        return key;
    }

    List<IdleReport.Row> rows() {
        List<IdleReport.Row> rows = new ArrayList<>();
        values.forEach((key, group) -> {
            IdleSplit split = splits.get(key);
            IdleCauses why = causes.get(key);
            TreeSet<String> used = metrics.get(key);
            BigDecimal notBusy = split.allocatedNotBusy();
            rows.add(new IdleReport.Row(key, group, split.rounded(), split.shares(),
                    IdleCauses.hours(notBusy).stripTrailingZeros(), why.hoursBy(notBusy), why.coverage(notBusy),
                    used.isEmpty() ? null : String.join(",", used), kWh(unitJoules.get(key)), kWh(idleJoules.get(key))));
        });
        return rows;
    }

    /** Joules as kilowatt-hours; none measured is 0. */
    private static BigDecimal kWh(Double joules) {
        return joules == null ? BigDecimal.ZERO : BigDecimal.valueOf(joules)
                .divide(BigDecimal.valueOf(3_600_000), 9, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
