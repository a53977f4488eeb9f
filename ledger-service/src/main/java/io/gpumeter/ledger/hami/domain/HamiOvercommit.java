package io.gpumeter.ledger.hami.domain;

import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.ledger.violation.domain.Violation;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * Finds cards whose booked HAMi grants promise, at some instant, more cores or more memory than HAMi registered for
 * the card ({@code HAMI_OVERCOMMIT}), each dimension on its own. Registered memory is what HAMi's device plugin
 * registered, after its memory scaling, so a scaled card is judged against what HAMi itself offers.
 */
public final class HamiOvercommit {

    /** One booked HAMi grant over a piece of time, clipped to the window read. */
    public record Held(String cluster, String gpuUuid, String namespace, String pod, int cores, long memoryMib,
                       Instant start, Instant end) {
    }

    private HamiOvercommit() {
    }

    /**
     * @param registered what HAMi registered per card, keyed {@code cluster/uuid}; a card it registered nothing for
     *                   is not judged
     */
    public static List<Violation> find(List<Held> held, Map<String, RegisteredGpu> registered) {
        Map<String, List<Held>> byCard = held.stream()
                .collect(Collectors.groupingBy(h -> h.cluster() + "/" + h.gpuUuid(), TreeMap::new, Collectors.toList()));
        List<Violation> out = new ArrayList<>();
        byCard.forEach((key, grants) -> {
            RegisteredGpu card = registered.get(key);
            if (card == null) {
                return;
            }
            dimension(grants, "CORES", card.cores(), Held::cores).ifPresent(out::add);
            dimension(grants, "MEMORY", card.memoryMib(), Held::memoryMib).ifPresent(out::add);
        });
        return out;
    }

    private static Optional<Violation> dimension(List<Held> grants, String resource, long capacity,
                                                            ToLongFunction<Held> amount) {
        if (capacity <= 0) {
            return Optional.empty();
        }
        TreeMap<Instant, Long> delta = new TreeMap<>();
        for (Held h : grants) {
            long a = amount.applyAsLong(h);
            if (a > 0 && h.end().isAfter(h.start())) {
                delta.merge(h.start(), a, Long::sum);
                delta.merge(h.end(), -a, Long::sum);
            }
        }
        long promised = 0;
        long peak = 0;
        Instant overSince = null;
        Instant first = null;
        Instant last = null;
        Duration over = Duration.ZERO;
        for (Map.Entry<Instant, Long> step : delta.entrySet()) {
            if (overSince != null) {
                over = over.plus(Duration.between(overSince, step.getKey()));
                last = step.getKey();
                overSince = null;
            }
            promised += step.getValue();
            if (promised > capacity) {
                overSince = step.getKey();
                first = first == null ? step.getKey() : first;
                peak = Math.max(peak, promised);
            }
        }
        if (first == null) {
            return Optional.empty();
        }
        Held any = grants.stream().min(Comparator.comparing(Held::start)).orElseThrow();
        return Optional.of(new Violation(Violation.Kind.HAMI_OVERCOMMIT, resource, any.cluster(),
                any.gpuUuid(), null, null, null, first, last, (int) over.toMinutes(), (double) peak / capacity,
                "promised up to " + peak + (resource.equals("CORES") ? " % cores" : " MiB") + " across the card's"
                        + " HAMi grants, " + capacity + " registered"));
    }
}
