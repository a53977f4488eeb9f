package io.gpumeter.ledger.violation.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The quota system losing trust: minutes where the memory HAMi accounts to a card's containers and the memory the
 * card itself reports in use (FB_USED) differ by more than a share of FB_USED and more than a floor in MiB.
 * Consecutive drifting minutes of a card form one DRIFT episode.
 */
public record DriftRule(double tolerance, double floorMib) {

    /** One minute of one card: HAMi's per-container memory sum, and the device's own figure. */
    public record CardMinute(String cluster, String gpuUuid, Instant minute, double containersMib, double fbUsedMib) {
    }

    public List<Violation> find(List<CardMinute> minutes) {
        Map<String, List<CardMinute>> byCard = new TreeMap<>();
        minutes.forEach(m -> byCard.computeIfAbsent(m.cluster() + "|" + m.gpuUuid(), k -> new ArrayList<>()).add(m));
        List<Violation> out = new ArrayList<>();
        for (List<CardMinute> card : byCard.values()) {
            card.sort(java.util.Comparator.comparing(CardMinute::minute));
            CardMinute first = null;
            Instant end = null;
            double peak = 0;
            for (CardMinute m : card) {
                double gap = Math.abs(m.containersMib() - m.fbUsedMib());
                boolean drifting = gap > floorMib && gap > tolerance * m.fbUsedMib();
                if (drifting && first != null && end.equals(m.minute())) {
                    end = m.minute().plusSeconds(60);
                    peak = Math.max(peak, ratio(gap, m.fbUsedMib()));
                    continue;
                }
                if (first != null) {
                    out.add(episode(first, end, peak));
                    first = null;
                }
                if (drifting) {
                    first = m;
                    end = m.minute().plusSeconds(60);
                    peak = ratio(gap, m.fbUsedMib());
                }
            }
            if (first != null) {
                out.add(episode(first, end, peak));
            }
        }
        return out;
    }

    private static double ratio(double gap, double fbUsed) {
        return fbUsed <= 0 ? Double.POSITIVE_INFINITY : gap / fbUsed;
    }

    private static Violation episode(CardMinute first, Instant end, double peak) {
        int minutes = (int) java.time.Duration.between(first.minute(), end).toMinutes();
        return new Violation(Violation.Kind.DRIFT, "MEMORY", first.cluster(), first.gpuUuid(), null, null, null,
                first.minute(), end, minutes, Double.isFinite(peak) ? peak : null);
    }
}
