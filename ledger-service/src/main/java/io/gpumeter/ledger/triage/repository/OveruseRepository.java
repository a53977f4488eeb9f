package io.gpumeter.ledger.triage.repository;

import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.hami.domain.HamiCheck;
import io.gpumeter.ledger.violation.domain.ContainerMinute;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;

/**
 * What the OVERUSE branch reads of one pod: its minutes on its cards as the over-use and bypass rules read them, and
 * its HAMi grants the ledger did not book.
 */
@ApplicationScoped
public class OveruseRepository {

    private final Pool pool;

    public OveruseRepository(Pool pool) {
        this.pool = pool;
    }

    /** One pod's HAMi container minutes (core utilization, memory) on these cards in [from, to). */
    public Uni<List<ContainerMinute>> containerMinutes(String cluster, Collection<String> cards, String namespace,
                                                       String pod, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT gpu_uuid, scope_key, minute,
                               max(sum / samples) FILTER (WHERE field = 'VGPU_CORE_UTIL') AS cores,
                               max(sum / samples) FILTER (WHERE field = 'VGPU_MEMORY_USED_MIB') AS memory
                        FROM ledger.usage_minute
                        WHERE cluster = $1 AND gpu_uuid = ANY($2) AND scope = 'CONTAINER' AND scope_key LIKE $3
                          AND field IN ('VGPU_CORE_UTIL', 'VGPU_MEMORY_USED_MIB') AND minute >= $4 AND minute < $5
                        GROUP BY gpu_uuid, scope_key, minute""")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new), like(namespace, pod), offset(from), offset(to)))
                .map(rows -> {
                    List<ContainerMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        String[] key = r.getString("scope_key").split("/", 3);
                        out.add(new ContainerMinute(cluster, r.getString("gpu_uuid"), key[0], key.length > 1 ? key[1] : "",
                                key.length > 2 ? key[2] : "", r.getOffsetDateTime("minute").toInstant(), r.getDouble("cores"),
                                r.getDouble("memory")));
                    }
                    return out;
                });
    }

    /** One pod's per-process minutes on these cards in [from, to), summed per container, as the bypass rule reads them. */
    public Uni<List<ContainerMinute>> processMinutes(String cluster, Collection<String> cards, String namespace,
                                                     String pod, Instant from, Instant to) {
        return pool.preparedQuery("""
                        SELECT gpu_uuid, split_part(scope_key, '/', 3) AS container, minute,
                               sum(sum / samples) FILTER (WHERE field = 'GPU_UTIL') AS sm,
                               sum(sum / samples) FILTER (WHERE field = 'FB_USED_MIB') AS memory
                        FROM ledger.usage_minute
                        WHERE cluster = $1 AND gpu_uuid = ANY($2) AND scope = 'PROCESS' AND scope_key LIKE $3
                          AND field IN ('GPU_UTIL', 'FB_USED_MIB') AND minute >= $4 AND minute < $5
                        GROUP BY gpu_uuid, container, minute""")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new), like(namespace, pod) + "/%", offset(from), offset(to)))
                .map(rows -> {
                    List<ContainerMinute> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new ContainerMinute(cluster, r.getString("gpu_uuid"), namespace, pod, r.getString("container"),
                                r.getOffsetDateTime("minute").toInstant(), r.getDouble("sm"), r.getDouble("memory")));
                    }
                    return out;
                });
    }

    /** One pod's HAMi grants the ledger did not book. */
    public Uni<List<GrantFinding>> grantFindings(String cluster, String podUid) {
        return pool.preparedQuery("SELECT * FROM ledger.hami_grant_finding WHERE cluster = $1 AND pod_uid = $2 ORDER BY since, gpu_uuid")
                .execute(Tuple.of(cluster, podUid))
                .map(rows -> {
                    List<GrantFinding> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new GrantFinding(r.getString("cluster"), r.getString("pod_uid"), r.getString("namespace"),
                                r.getString("pod"), r.getString("node"), r.getString("gpu_uuid"), r.getLong("memory_mib"),
                                r.getInteger("cores"), HamiCheck.valueOf(r.getString("failed_check")), r.getString("detail"),
                                instant(r.getOffsetDateTime("since")), instant(r.getOffsetDateTime("until")),
                                r.getString("tenant"), r.getString("team"), r.getString("project")));
                    }
                    return out;
                });
    }

    /** A LIKE pattern of a pod's series keys ({@code ns/pod/...}), its names' wildcards escaped. */
    static String like(String namespace, String pod) {
        return escape(namespace) + "/" + escape(pod) + "/%";
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
