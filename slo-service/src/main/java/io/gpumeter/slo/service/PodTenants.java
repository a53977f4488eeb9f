package io.gpumeter.slo.service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.repository.LatencyRepository.PodHour;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which tenant a pod belonged to, from the ledger's rows for the units it held
 * ({@code GET /api/v1/occupants?namespace=&pod=&at=}). A pod is read once per UTC hour, at the first minute of the
 * hour it served requests (that minute's first millisecond, then its last if it held nothing yet), and the answer is
 * remembered, so an SLO's evaluations cost one ledger read per pod and hour however often they run.
 */
@ApplicationScoped
public class PodTenants {

    private static final Duration LAST_MILLI = Duration.ofMinutes(1).minusMillis(1);

    /** What the ledger said about a pod in an hour. */
    public enum Kind {
        /** Held a card, attributed to {@code tenant}. */
        TENANT,
        /** Held a card, attributed to no tenant. */
        NONE,
        /** Held no card the ledger knows of. */
        UNKNOWN,
        /** The ledger read failed; never remembered. */
        FAILED
    }

    /** A pod-hour's answer; {@code tenant} is set only for {@link Kind#TENANT}. */
    public record Answer(Kind kind, String tenant) {

        static final Answer NONE = new Answer(Kind.NONE, null);
        static final Answer UNKNOWN = new Answer(Kind.UNKNOWN, null);
        static final Answer FAILED = new Answer(Kind.FAILED, null);

        public boolean is(String wanted) {
            return kind == Kind.TENANT && tenant.equals(wanted);
        }
    }

    private final LedgerClient ledger;
    private final SloConfig.Tenants config;
    private final Cache<String, Answer> remembered;

    public PodTenants(LedgerClient ledger, SloConfig config) {
        this.ledger = ledger;
        this.config = config.tenants();
        this.remembered = Caffeine.newBuilder().maximumSize(this.config.cacheSize()).build();
    }

    /** Each pod-hour's answer, asking the ledger only for those not remembered. */
    public Uni<Map<PodHour, Answer>> resolve(List<PodHour> podHours, Instant now) {
        Map<PodHour, Answer> out = new HashMap<>();
        List<PodHour> missing = new ArrayList<>();
        for (PodHour h : podHours) {
            Answer known = remembered.getIfPresent(key(h));
            if (known == null) {
                missing.add(h);
            } else {
                out.put(h, known);
            }
        }
        if (missing.isEmpty()) {
            return Uni.createFrom().item(out);
        }
        return Multi.createFrom().iterable(missing)
                .onItem().transformToUni(h -> ask(h).invoke(a -> remember(h, a, now)).map(a -> Map.entry(h, a)))
                .merge(config.ledgerConcurrency())
                .collect().in(() -> out, (map, e) -> map.put(e.getKey(), e.getValue()));
    }

    private Uni<Answer> ask(PodHour h) {
        Instant at = h.firstMinute();
        return ledger.podOccupants(h.namespace(), h.pod(), at)
                .chain(rows -> rows.isEmpty() ? ledger.podOccupants(h.namespace(), h.pod(), at.plus(LAST_MILLI))
                        : Uni.createFrom().item(rows))
                .map(PodTenants::answer)
                .onFailure().recoverWithItem(Answer.FAILED);
    }

    private static Answer answer(List<Occupant> rows) {
        if (rows.isEmpty()) {
            return Answer.UNKNOWN;
        }
        // every unit of one pod carries the pod's attribution; the first named tenant stands for them all
        return rows.stream().map(Occupant::tenant).filter(t -> t != null && !t.isBlank()).findFirst()
                .map(t -> new Answer(Kind.TENANT, t)).orElse(Answer.NONE);
    }

    /**
     * A failure is never remembered; nor is "unknown" until the hour has been over for the settle time, since the
     * ledger may not have received the pod's facts yet.
     */
    private void remember(PodHour h, Answer a, Instant now) {
        boolean settled = !h.hour().plus(1, ChronoUnit.HOURS).plus(config.unknownSettle()).isAfter(now);
        if (a.kind() == Kind.TENANT || a.kind() == Kind.NONE || a.kind() == Kind.UNKNOWN && settled) {
            remembered.put(key(h), a);
        }
    }

    private static String key(PodHour h) {
        return h.podKey() + "@" + h.hour();
    }
}
