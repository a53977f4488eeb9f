package io.gpumeter.slo.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Each service's request rate at its busiest hour of every local day, and the pods that served it. */
@ApplicationScoped
public class RequestRateRepository {

    /** A service's busiest hour of a local day, in requests per second over that hour. */
    public record BusiestHour(String service, String namespace, LocalDate day, double requestsPerSecond) {
    }

    /** A pod that answered a service's requests in the window. */
    public record ServicePod(String service, String namespace, String pod) {
    }

    private final Pool pool;

    public RequestRateRepository(Pool pool) {
        this.pool = pool;
    }

    /** Hours are whole clock hours (hours folded by retention are stored at their start, so they count alike). */
    public Uni<List<BusiestHour>> busiestHours(TimeWindow window, ZoneId zone) {
        return pool.preparedQuery("""
                        SELECT service, namespace, (hour AT TIME ZONE $3)::date AS day, max(requests) / 3600.0 AS rate
                        FROM (SELECT service, namespace, date_trunc('hour', minute) AS hour, sum(requests) AS requests
                              FROM slo.request_minute WHERE minute >= $1 AND minute < $2
                              GROUP BY 1, 2, 3) hours
                        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3""")
                .execute(Tuple.of(window.start().atOffset(ZoneOffset.UTC), window.end().atOffset(ZoneOffset.UTC),
                        zone.getId()))
                .map(rows -> {
                    List<BusiestHour> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new BusiestHour(r.getString("service"), r.getString("namespace"),
                                r.getLocalDate("day"), r.getNumeric("rate").doubleValue()));
                    }
                    return out;
                });
    }

    public Uni<List<ServicePod>> pods(TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT DISTINCT service, namespace, pod FROM slo.request_minute
                        WHERE minute >= $1 AND minute < $2 ORDER BY 1, 2, 3""")
                .execute(Tuple.of(window.start().atOffset(ZoneOffset.UTC), window.end().atOffset(ZoneOffset.UTC)))
                .map(rows -> {
                    List<ServicePod> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new ServicePod(r.getString("service"), r.getString("namespace"), r.getString("pod")));
                    }
                    return out;
                });
    }
}
