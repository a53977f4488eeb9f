package io.gpumeter.slo.service;

import io.gpumeter.slo.client.Occupant;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The units (and so the cards) pods held in each of their minutes, from the ledger. A pod's holdings are asked again
 * only once the last answer no longer covers a whole minute, so a pod that stays put costs one read.
 */
@ApplicationScoped
public class PodPlacements {

    private static final Duration LAST_MILLI = Duration.ofMinutes(1).minusMillis(1);

    /** A pod ("namespace/pod") in a minute. */
    public record PodMinuteKey(Instant minute, String pod) {
    }

    private final Neighbourhood neighbourhood;

    public PodPlacements(Neighbourhood neighbourhood) {
        this.neighbourhood = neighbourhood;
    }

    /**
     * @param minutesByPod each pod's minutes, in order
     * @param concurrency  pods asked about at once
     */
    public Uni<Map<PodMinuteKey, List<Occupant>>> of(Map<String, List<Instant>> minutesByPod, int concurrency) {
        if (minutesByPod.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Multi.createFrom().iterable(minutesByPod.entrySet())
                .onItem().transformToUni(e -> ofPod(e.getKey(), e.getValue()))
                .merge(concurrency)
                .collect().in(HashMap<PodMinuteKey, List<Occupant>>::new, Map::putAll);
    }

    private Uni<Map<PodMinuteKey, List<Occupant>>> ofPod(String pod, List<Instant> minutes) {
        Map<PodMinuteKey, List<Occupant>> out = new HashMap<>();
        List<List<Occupant>> last = new ArrayList<>(List.of(List.of()));
        return Multi.createFrom().iterable(minutes)
                .onItem().transformToUniAndConcatenate(minute -> {
                    List<Occupant> cached = last.get(0);
                    boolean valid = !cached.isEmpty() && cached.stream()
                            .allMatch(o -> o.heldAt(minute) && o.heldAt(minute.plus(LAST_MILLI)));
                    Uni<List<Occupant>> held = valid ? Uni.createFrom().item(cached) : neighbourhood.holdings(pod, minute);
                    return held.invoke(h -> {
                        last.set(0, h);
                        out.put(new PodMinuteKey(minute, pod), h);
                    });
                })
                .collect().last().map(ignored -> out);
    }
}
