package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** The energy of cards no unit held, per group of the cards' own dimensions (idle-energy.sql), and per card. */
@ApplicationScoped
public class IdleEnergyRepository {

    private static final SqlFile SQL = SqlFile.load("idle-energy.sql");
    private static final SqlFile PER_CARD = SqlFile.load("card-energy.sql");

    /** A card's energy held by one pod's units (of its tenant), or by no unit (tenant, namespace and pod null). */
    public record CardPart(String cluster, String gpuUuid, String tenant, String namespace, String pod, double joules) {
    }

    /** One group's idle energy. */
    public record Idle(String key, Map<String, String> group, double joules) {
    }

    private final Pool pool;

    public IdleEnergyRepository(Pool pool) {
        this.pool = pool;
    }

    /** @param dimensions cluster, node, model and at most one time bucket: the dimensions a card has */
    public Uni<List<Idle>> idleEnergy(TimeWindow window, List<GroupDimension> dimensions, Instant now,
                                      List<TimeBucket> buckets) {
        String select = dimensions.stream().map(d -> "coalesce(" + d.column("m") + ", 'unknown') AS d" + d.ordinal())
                .collect(Collectors.joining(", "));
        String group = dimensions.stream().map(d -> "d" + d.ordinal()).collect(Collectors.joining(", "));
        Map<String, String> placeholders = Map.of("dimensions", select, "groups", group);
        String sql = SQL.fill(SqlFile.with(placeholders, buckets == null
                ? Map.of("bucket", "NULL::text", "bucket_join", "", "w_start", "$1", "w_end", "$2")
                : Map.of("bucket", "k.bucket", "w_start", "k.b_start", "w_end", "k.b_end",
                "bucket_join", SqlFile.bucketsOverlapping("i.minute", "i.minute + i.span"))));
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        return pool.preparedQuery(sql)
                .execute(SqlFile.withBuckets(Tuple.of(toOffset(window.start()), toOffset(window.end()), toOffset(cap),
                        null), buckets))
                .map(rows -> {
                    List<Idle> out = new ArrayList<>();
                    for (Row row : rows) {
                        Map<String, String> values = new LinkedHashMap<>();
                        dimensions.forEach(d -> values.put(d.label(), row.getString("d" + d.ordinal())));
                        Double joules = row.getDouble("idle_j");
                        out.add(new Idle(String.join("/", values.values()), values, joules == null ? 0 : joules));
                    }
                    return out;
                });
    }

    /**
     * Each card's energy over [from, cap) per pod holding it and the part no unit held (card-energy.sql).
     *
     * @param cluster one cluster, null for all
     */
    public Uni<List<CardPart>> perCard(Instant from, Instant cap, String cluster) {
        return pool.preparedQuery(PER_CARD.fill(Map.of()))
                .execute(Tuple.of(toOffset(from), toOffset(cap), cluster))
                .map(rows -> {
                    List<CardPart> out = new ArrayList<>();
                    for (Row row : rows) {
                        Double joules = row.getDouble("joules");
                        out.add(new CardPart(row.getString("cluster"), row.getString("gpu_uuid"), row.getString("tenant"),
                                row.getString("namespace"), row.getString("pod"), joules == null ? 0 : joules));
                    }
                    return out;
                });
    }
}
