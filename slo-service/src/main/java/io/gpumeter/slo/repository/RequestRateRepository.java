package io.gpumeter.slo.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
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

    /** What the request minutes say of the services: who served each, and each one's busiest hour of every day. */
    public record ServiceTraffic(List<ServicePod> pods, List<BusiestHour> busiest) {
    }

    /**
     * The pods that answered each service in [history start, {@code podsUntil}) and each service's busiest hour of
     * every local day of {@code history}, from one scan of the minutes: they are first summed per pod and hour, marked
     * whether they fall in the history, and both answers are read from those sums. Hours are whole clock hours (hours
     * folded by retention are stored at their start, so they count alike).
     */
    public Uni<ServiceTraffic> traffic(TimeWindow history, Instant podsUntil, ZoneId zone) {
        Instant until = podsUntil.isAfter(history.end()) ? podsUntil : history.end();
        return pool.preparedQuery("""
                        WITH pod_hours AS MATERIALIZED (
                            SELECT service, namespace, pod, date_trunc('hour', minute) AS hour, minute < $2 AS in_history,
                                   sum(requests) AS requests
                            FROM slo.request_minute WHERE minute >= $1 AND minute < $3
                            GROUP BY 1, 2, 3, 4, 5),
                        hours AS (
                            SELECT service, namespace, hour, sum(requests) AS requests FROM pod_hours
                            WHERE in_history GROUP BY 1, 2, 3)
                        SELECT service, namespace, NULL::text AS pod, (hour AT TIME ZONE $4)::date AS day,
                               max(requests) / 3600.0 AS rate
                        FROM hours GROUP BY 1, 2, 4
                        UNION ALL
                        SELECT DISTINCT service, namespace, pod, NULL::date, NULL::numeric FROM pod_hours
                        ORDER BY 1, 2, 3, 4""")
                .execute(Tuple.of(history.start().atOffset(ZoneOffset.UTC), history.end().atOffset(ZoneOffset.UTC),
                        until.atOffset(ZoneOffset.UTC), zone.getId()))
                .map(rows -> {
                    List<ServicePod> pods = new ArrayList<>();
                    List<BusiestHour> busiest = new ArrayList<>();
                    for (Row r : rows) {
                        if (r.getString("pod") == null) {
                            busiest.add(new BusiestHour(r.getString("service"), r.getString("namespace"),
                                    r.getLocalDate("day"), r.getNumeric("rate").doubleValue()));
                        } else {
                            pods.add(new ServicePod(r.getString("service"), r.getString("namespace"),
                                    r.getString("pod")));
                        }
                    }
                    return new ServiceTraffic(pods, busiest);
                });
    }
}
