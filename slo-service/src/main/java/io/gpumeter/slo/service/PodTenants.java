package io.gpumeter.slo.service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.PodHoldings;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.repository.LatencyRepository.PodHour;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which tenant a pod belonged to, from the ledger's rows for the units it held. A pod is judged once per UTC hour, at
 * the first minute of the hour it served requests (that minute's first millisecond, then its last if it held nothing
 * yet), and the answer is remembered. The pod-hours not remembered are read together, in one holdings read
 * ({@code POST /api/v1/holdings}) spanning their first minutes, so an evaluation costs at most one ledger read
 * however many pods and hours it covers.
 */
@ApplicationScoped
public class PodTenants {

    private static final Duration MINUTE = Duration.ofMinutes(1);
    private static final Duration LAST_MILLI = MINUTE.minusMillis(1);

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
        Instant from = missing.stream().map(PodHour::firstMinute).min(Instant::compareTo).orElseThrow();
        Instant to = missing.stream().map(PodHour::firstMinute).max(Instant::compareTo).orElseThrow().plus(MINUTE);
        Set<String> pods = new TreeSet<>();
        missing.forEach(h -> pods.add(h.podKey()));
        return ledger.holdings(pods, new TimeWindow(from, to))
                .map(held -> {
                    for (PodHour h : missing) {
                        Answer a = answer(held.getOrDefault(h.podKey(), List.of()), h.firstMinute());
                        remember(h, a, now);
                        out.put(h, a);
                    }
                    return out;
                })
                .onFailure().recoverWithItem(() -> {
                    missing.forEach(h -> out.put(h, Answer.FAILED));
                    return out;
                });
    }

    /** The units held at the minute's first millisecond, else at its last. */
    private static Answer answer(List<PodHoldings.Holding> units, Instant minute) {
        List<Occupant> rows = units.stream().filter(u -> u.heldAt(minute)).map(PodHoldings.Holding::occupant).toList();
        return answer(rows.isEmpty() ? units.stream().filter(u -> u.heldAt(minute.plus(LAST_MILLI)))
                .map(PodHoldings.Holding::occupant).toList() : rows);
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
