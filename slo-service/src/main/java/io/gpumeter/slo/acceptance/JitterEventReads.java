package io.gpumeter.slo.acceptance;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.repository.JitterEventRepository;
import io.gpumeter.slo.repository.JitterEventRepository.LatencySlo;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A cell's jitter events as slo-service stored them: those of the cell's services (each service in its namespace) that
 * started in the window, and the latency SLOs that watch those services — without one, no minute of theirs was judged,
 * so a count of none says nothing.
 */
@ApplicationScoped
public class JitterEventReads {

    /** One stored event, without its evidence. */
    public record Event(long id, String slo, String service, String namespace, String sli, Instant start, Instant end,
                        int badMinutes, double peakP99Ms, BigDecimal thresholdMs) {
    }

    /**
     * @param services the cell's services as "namespace/service"
     * @param watchedBy the latency SLOs selecting one of them, by name
     * @param calls    where a reviewer reads them again: slo-service's own jitter events and SLOs
     */
    public record CellEvents(List<String> services, List<String> watchedBy, List<Event> events, List<Run.Call> calls) {

        static final CellEvents NONE = new CellEvents(List.of(), List.of(), List.of(), List.of());
    }

    private final Pool pool;
    private final JitterEventRepository repository;

    public JitterEventReads(Pool pool, JitterEventRepository repository) {
        this.pool = pool;
        this.repository = repository;
    }

    /** The events of these services ("namespace/service") that started in the window, in start order. */
    public Uni<CellEvents> of(Collection<String> services, TimeWindow window) {
        if (services.isEmpty()) {
            return Uni.createFrom().item(CellEvents.NONE);
        }
        List<String> asked = services.stream().sorted().distinct().toList();
        return repository.latencySlos().chain(slos -> pool.preparedQuery("""
                        SELECT id, slo, service, namespace, sli, started_at, ended_at, bad_minutes, peak_p99_ms,
                               threshold_ms
                        FROM slo.jitter_event
                        WHERE started_at >= $1 AND started_at < $2 AND namespace IS NOT NULL
                          AND namespace || '/' || service = ANY($3)
                        ORDER BY started_at, id""")
                .execute(Tuple.of(window.start().atOffset(ZoneOffset.UTC), window.end().atOffset(ZoneOffset.UTC),
                        asked.toArray(String[]::new)))
                .map(rows -> {
                    List<Event> events = new ArrayList<>();
                    for (Row r : rows) {
                        events.add(new Event(r.getLong("id"), r.getString("slo"), r.getString("service"),
                                r.getString("namespace"), r.getString("sli"),
                                r.getOffsetDateTime("started_at").toInstant(), r.getOffsetDateTime("ended_at").toInstant(),
                                r.getInteger("bad_minutes"), r.getDouble("peak_p99_ms"), r.getBigDecimal("threshold_ms")));
                    }
                    List<String> watchedBy = slos.stream().filter(s -> watches(s, asked)).map(LatencySlo::name)
                            .sorted().toList();
                    return new CellEvents(asked, watchedBy, List.copyOf(events), calls(asked, watchedBy, window));
                }));
    }

    /** An SLO of a service in its namespace, or a legacy one of the name in whichever namespace reports it. */
    static boolean watches(LatencySlo slo, List<String> services) {
        return services.stream().anyMatch(key -> {
            int slash = key.indexOf('/');
            return key.substring(slash + 1).equals(slo.service())
                    && (slo.namespace() == null || slo.namespace().equals(key.substring(0, slash)));
        });
    }

    private static List<Run.Call> calls(List<String> services, List<String> watchedBy, TimeWindow window) {
        List<Run.Call> calls = new ArrayList<>();
        for (String key : services) {
            int slash = key.indexOf('/');
            calls.add(new Run.Call(CurlLine.slo("/api/v1/jitter-events", "service", key.substring(slash + 1),
                    "namespace", key.substring(0, slash), "from", window.start().toString(), "to",
                    window.end().toString()), 200, "the service's events as stored in slo.jitter_event (this read lists"
                    + " those overlapping the window; the figure counts those that started in it, listed in the curve CSV)"));
        }
        calls.add(new Run.Call(CurlLine.slo("/api/v1/slos"), 200, watchedBy.isEmpty()
                ? "no latency SLO selects " + services + ": their minutes are not judged for jitter"
                : "the latency SLOs whose minutes are judged for jitter: " + watchedBy));
        return List.copyOf(calls);
    }
}
