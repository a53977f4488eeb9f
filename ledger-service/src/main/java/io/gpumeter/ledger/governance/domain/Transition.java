package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.ObjectCondition;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A condition change reconstructed from the versions of an object: each version shows only the latest state of
 * each condition type, so the union over versions is the history. Conditions without a time are left out.
 */
record Transition(String type, String status, String reason, String message, Instant at) {

    boolean isTrue() {
        return "True".equals(status);
    }

    /** Every distinct (type, status, reason, time) over the versions, by time; the newest message wins. */
    static <T> List<Transition> of(List<T> orderedVersions, Function<T, List<ObjectCondition>> conditions) {
        Map<String, Transition> seen = new LinkedHashMap<>();
        for (T version : orderedVersions) {
            for (ObjectCondition c : conditions.apply(version)) {
                if (c.lastTransitionTime() == null || c.type() == null) {
                    continue;
                }
                String key = c.type() + "|" + c.status() + "|" + c.reason() + "|" + c.lastTransitionTime();
                seen.put(key, new Transition(c.type(), c.status(), c.reason(), c.message(), c.lastTransitionTime()));
            }
        }
        List<Transition> out = new ArrayList<>(seen.values());
        out.sort(Comparator.comparing(Transition::at).thenComparing(t -> order(t.type())));
        return out;
    }

    /** At one instant Kueue reserves quota before it admits; an eviction ends an admission. */
    private static int order(String type) {
        return switch (type) {
            case "Requeued", "Evicted", "Preempted" -> 0;
            case "QuotaReserved" -> 1;
            case "Admitted" -> 2;
            default -> 3;
        };
    }
}
