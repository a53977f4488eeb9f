package io.gpumeter.alert.domain;

import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The failure incidents of one evaluation, from two reads of the ledger: those that started within the lookback
 * (rules counting recent failures need the recovered ones too) and those still open whatever their start (a card
 * waiting weeks for its reset must keep its alert). An open incident that started within the lookback is in both
 * reads and counts once.
 */
public final class Incidents {

    private Incidents() {
    }

    /** One failure's identity: what failed, where, and when it started. */
    private record Key(String cause, String node, String gpuUuid, String namespace, String pod, Instant startedAt) {
        static Key of(Incident i) {
            return new Key(i.cause(), i.node(), i.gpuUuid(), i.namespace(), i.pod(), i.startedAt());
        }
    }

    /**
     * Both reads as one list ordered by start. Either read failing fails the whole, so that no alert resolves on
     * half an answer; without the endpoint the source is absent. Should the reads disagree on one incident (it
     * recovered between them), the copy saying open counts: the next evaluation reads it again.
     */
    public static Source<List<Incident>> merge(Source<List<Incident>> recent, Source<List<Incident>> open) {
        if (recent instanceof Source.Failed<List<Incident>> || open instanceof Source.Failed<List<Incident>>) {
            return Source.failed(Stream.of(recent.reason(), open.reason()).filter(Objects::nonNull).distinct()
                    .reduce((a, b) -> a + "; " + b).orElse("ledger failed"));
        }
        if (!(recent instanceof Source.Available<List<Incident>>)) {
            return recent;
        }
        Map<Key, Incident> byKey = new LinkedHashMap<>();
        Stream.concat(recent.orElse(List.of()).stream(), open.orElse(List.of()).stream())
                .forEach(i -> byKey.merge(Key.of(i), i, (kept, other) -> kept.open() ? kept : other.open() ? other : kept));
        return Source.available(byKey.values().stream()
                .sorted(Comparator.comparing(Incident::startedAt, Comparator.nullsFirst(Comparator.naturalOrder()))).toList());
    }
}
