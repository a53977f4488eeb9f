package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The units (and so the cards) pods held in each of their minutes, from one ledger read: every pod's holdings over the
 * span of all the minutes asked, each minute then placed from them.
 */
@ApplicationScoped
public class PodPlacements {

    /** A pod ("namespace/pod") in a minute. */
    public record PodMinuteKey(Instant minute, String pod) {
    }

    private final LedgerClient ledger;

    public PodPlacements(LedgerClient ledger) {
        this.ledger = ledger;
    }

    /** @param minutesByPod each pod's minutes */
    public Uni<Map<PodMinuteKey, List<Occupant>>> of(Map<String, List<Instant>> minutesByPod) {
        Instant first = minutesByPod.values().stream().flatMap(List::stream).min(Instant::compareTo).orElse(null);
        Instant last = minutesByPod.values().stream().flatMap(List::stream).max(Instant::compareTo).orElse(null);
        if (first == null) {
            return Uni.createFrom().item(Map.of());
        }
        return ledger.holdings(minutesByPod.keySet(), new TimeWindow(first, last.plus(Neighbourhood.MINUTE))).map(held -> {
            Map<PodMinuteKey, List<Occupant>> out = new HashMap<>();
            minutesByPod.forEach((pod, minutes) -> {
                var units = held.getOrDefault(pod, List.of());
                for (Instant minute : minutes) {
                    out.put(new PodMinuteKey(minute, pod), Neighbourhood.during(units, minute));
                }
            });
            return out;
        });
    }
}
