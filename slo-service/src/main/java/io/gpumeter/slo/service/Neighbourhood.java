package io.gpumeter.slo.service;

import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who held which card during a minute, from the ledger's Q1 answers: the union of the occupants at the minute's
 * first and last millisecond, so a pod that arrived or left inside the minute is seen.
 */
@ApplicationScoped
public class Neighbourhood {

    private static final Duration LAST_MILLI = Duration.ofMinutes(1).minusMillis(1);

    private final LedgerClient ledger;

    public Neighbourhood(LedgerClient ledger) {
        this.ledger = ledger;
    }

    /** The units one pod ("namespace/pod") held during the minute. */
    public Uni<List<Occupant>> holdings(String podKey, Instant minute) {
        int slash = podKey.indexOf('/');
        String namespace = podKey.substring(0, slash);
        String pod = podKey.substring(slash + 1);
        return Uni.combine().all().unis(ledger.podOccupants(namespace, pod, minute),
                        ledger.podOccupants(namespace, pod, minute.plus(LAST_MILLI)))
                .with((first, last) -> union(first, last));
    }

    /** Every unit of a card held during the minute. */
    public Uni<List<Occupant>> occupants(String gpuUuid, Instant minute) {
        return Uni.combine().all().unis(ledger.gpuOccupants(gpuUuid, minute),
                        ledger.gpuOccupants(gpuUuid, minute.plus(LAST_MILLI)))
                .with((first, last) -> union(first, last));
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
