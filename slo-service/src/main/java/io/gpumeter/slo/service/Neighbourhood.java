package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.PodHoldings;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Who held which card during a minute, from the ledger: a unit counts when it was held at the minute's first or last
 * millisecond, so a pod that arrived or left inside the minute is seen. Pods and cards are asked about as sets.
 */
@ApplicationScoped
public class Neighbourhood {

    static final Duration MINUTE = Duration.ofMinutes(1);
    private static final Duration LAST_MILLI = MINUTE.minusMillis(1);

    private final LedgerClient ledger;

    public Neighbourhood(LedgerClient ledger) {
        this.ledger = ledger;
    }

    /** The units each pod ("namespace/pod") held during the minute, by pod: one ledger read for the set. */
    public Uni<Map<String, List<Occupant>>> holdings(Set<String> podKeys, Instant minute) {
        if (podKeys.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return ledger.holdings(podKeys, new TimeWindow(minute, minute.plus(MINUTE))).map(held -> {
            Map<String, List<Occupant>> out = new TreeMap<>();
            for (String pod : podKeys) {
                out.put(pod, during(held.getOrDefault(pod, List.of()), minute));
            }
            return out;
        });
    }

    /** Every unit of these cards held during the minute, by card: one ledger read for the set. */
    public Uni<Map<String, List<Occupant>>> occupants(Set<String> gpuUuids, Instant minute) {
        return onCards(gpuUuids, new TimeWindow(minute, minute.plus(MINUTE))).map(held -> {
            Map<String, List<Occupant>> out = new TreeMap<>();
            for (String gpu : gpuUuids) {
                out.put(gpu, during(held.getOrDefault(gpu, List.of()), minute));
            }
            return out;
        });
    }

    /**
     * What was held on these cards over a window, by card, each unit with the part of the window it was held; one
     * ledger read for the set, from which {@link #during} picks any minute's occupants.
     */
    public Uni<Map<String, List<PodHoldings.Holding>>> onCards(Set<String> gpuUuids, TimeWindow window) {
        if (gpuUuids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return ledger.cardHoldings(gpuUuids, window);
    }

    /** Of holdings over a window (a pod's, or a card's), the units held during one minute of it. */
    static List<Occupant> during(List<PodHoldings.Holding> units, Instant minute) {
        return union(units.stream().filter(h -> h.heldAt(minute)).map(PodHoldings.Holding::occupant).toList(),
                units.stream().filter(h -> h.heldAt(minute.plus(LAST_MILLI))).map(PodHoldings.Holding::occupant).toList());
    }

    private static List<Occupant> union(Collection<Occupant> first, Collection<Occupant> last) {
        Map<String, Occupant> out = new LinkedHashMap<>();
        for (Occupant o : first) {
            out.put(key(o), o);
        }
        for (Occupant o : last) {
            out.putIfAbsent(key(o), o);
        }
        return new ArrayList<>(out.values());
    }

    private static String key(Occupant o) {
        return o.podKey() + "|" + o.gpuUuid() + "|" + (o.unit() == null ? "" : o.unit().kind() + o.unit().migInstance())
                + "|" + o.since();
    }
}
