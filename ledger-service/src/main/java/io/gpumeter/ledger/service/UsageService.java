package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.governance.service.IncidentBooks;
import io.gpumeter.ledger.governance.service.MigBooks;
import io.gpumeter.ledger.repository.ClusterLock;
import io.gpumeter.ledger.repository.GpuBindingRepository;
import io.gpumeter.ledger.repository.MinuteRollupRepository;
import io.gpumeter.ledger.repository.UsageRepository;
import io.gpumeter.ledger.usage.domain.CardUsage;
import io.gpumeter.ledger.usage.domain.CounterField;
import io.gpumeter.ledger.usage.domain.CounterIncrease;
import io.gpumeter.ledger.usage.domain.MinuteFolds;
import io.gpumeter.ledger.usage.domain.UsagePoint;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Stores usage — single samples and per-minute partials alike — into the minute rollups (the cards' counters into
 * their readings, from which {@link CounterBooks} derives their minutes) and learns from their pod
 * labels which cards anonymous allocations hold, re-deriving those pods; changes of a card's Xid gauge and of its
 * memory-health series become
 * failure incidents, and the MIG instances it reports are kept for MIG consistency — all in one transaction per batch.
 * Deliveries of one cluster add their rollups side by side and take the cluster's ingest lock only for the books
 * that depend on order.
 */
@ApplicationScoped
public class UsageService {

    /** What a usage batch did: values counted for the first time, and values already counted (or repeated in it). */
    public record UsageResult(int accepted, int duplicates, int podsBound) {
    }

    private final Pool pool;
    private final UsageRepository usage;
    private final MinuteRollupRepository minutes;
    private final GpuBindingRepository bindings;
    private final AllocationBooks books;
    private final IncidentBooks incidentBooks;
    private final MigBooks migBooks;

    private final CounterBooks counters;

    public UsageService(Pool pool, UsageRepository usage, MinuteRollupRepository minutes, GpuBindingRepository bindings, AllocationBooks books,
                        IncidentBooks incidentBooks, MigBooks migBooks, CounterBooks counters) {
        this.bindings = bindings;
        this.counters = counters;
        this.incidentBooks = incidentBooks;
        this.migBooks = migBooks;
        this.pool = pool;
        this.usage = usage;
        this.minutes = minutes;
        this.books = books;
    }

    public Uni<UsageResult> ingest(UsageBatch batch) {
        validate(batch);
        String cluster = batch.cluster();
        MinuteFolds folds = MinuteFolds.of(batch.samples(), batch.partials());
        MinuteFolds rollups = folds.only(field -> CounterField.ofRaw(field).isEmpty());
        MinuteFolds counterReadings = folds.only(field -> CounterField.ofRaw(field).isPresent());
        List<UsageSample> sightings = sightings(batch);
        List<UsageSample> gaugeReadings = incidentGaugeReadings(batch);
        return usage.createPartitions(partitionDays(folds, counterReadings)).chain(() -> pool.withTransaction(conn ->
                lateDays(conn, cluster, folds.days())
                .chain(() -> minutes.addMinutes(conn, cluster, rollups))
                // What follows depends on order, so one delivery of a cluster at a time: a counter's minutes are
                // derived from its neighbouring readings, which a concurrent delivery could be writing; the Xid,
                // memory-health and MIG books tell a change from the readings stored before; and a card's pods
                // are bound and their allocations re-derived from all sightings. None of it writes the rows the
                // rollups above write (derived counter fields are refused from deliveries), so a delivery holding
                // this lock never waits for one still adding its rollups.
                .call(() -> ClusterLock.take(conn, ClusterLock.INGEST, cluster))
                .chain(added -> counters.record(conn, cluster, counterReadings).map(more -> added + more))
                .call(() -> incidentBooks.recordXidGauge(conn, cluster, gaugeReadings))
                .call(() -> incidentBooks.recordHealthGauges(conn, cluster, gaugeReadings))
                .call(() -> migBooks.recordInstances(conn, cluster, batch))
                .chain(added -> bindings.bind(conn, cluster, sightings)
                        .chain(bound -> bindings.podUids(conn, cluster, bound))
                        .chain(uids -> books.rederive(conn, cluster, uids).replaceWith(uids.size()))
                        .map(bound -> new UsageResult(added, folds.offered() - added, bound)))));
    }

    /**
     * The days whose minute partitions a delivery may write: its rows' days, and those of the counter minutes
     * derived from them, which reach {@link CounterIncrease#MAX_GAP} and a minute either side.
     */
    static Set<LocalDate> partitionDays(MinuteFolds folds, MinuteFolds counterReadings) {
        Set<LocalDate> days = new TreeSet<>(folds.days());
        Duration reach = CounterIncrease.MAX_GAP.plus(Duration.ofMinutes(1));
        counterReadings.rows().keySet().forEach(k -> {
            days.add(LocalDate.ofInstant(k.minute().minus(reach), ZoneOffset.UTC));
            days.add(LocalDate.ofInstant(k.minute().plus(reach), ZoneOffset.UTC));
        });
        return days;
    }

    /**
     * A day the minute retention may be folding (one this process does not remember as made) is written as before
     * the rollups went side by side: under the ingest lock, then the partitions' lock, held to the end so that the
     * retention cannot drop the day's partition under the delivery's rows.
     */
    private Uni<Void> lateDays(SqlConnection conn, String cluster, Set<LocalDate> days) {
        return usage.hasPartitions(days) ? Uni.createFrom().voidItem()
                : ClusterLock.take(conn, ClusterLock.INGEST, cluster).chain(() -> usage.ensurePartitions(conn, days));
    }

    /**
     * The samples that can say a pod was on a card: every sample, and of each partial naming a pod its earliest and
     * latest value, which is all a sighting keeps (first and last seen).
     */
    static List<UsageSample> sightings(UsageBatch batch) {
        List<UsageSample> out = new ArrayList<>(batch.samples());
        for (UsagePartial p : batch.partials()) {
            if (p.pod() != null && p.namespace() != null) {
                out.addAll(p.earliestAndLatest());
            }
        }
        return out;
    }

    /** The series whose changes become failure incidents: the Xid gauge and the memory-health series. */
    static final Set<UsageField> INCIDENT_GAUGES = EnumSet.of(UsageField.XID, UsageField.ROW_REMAP_FAILURE,
            UsageField.ROW_REMAP_PENDING, UsageField.UNCORRECTABLE_REMAPPED_ROWS, UsageField.ECC_DBE_VOLATILE,
            UsageField.RETIRED_PAGES_PENDING);

    /** The readings of cards' incident gauges, from samples and partials alike. */
    static List<UsageSample> incidentGaugeReadings(UsageBatch batch) {
        List<UsageSample> out = new ArrayList<>();
        batch.samples().stream().filter(s -> INCIDENT_GAUGES.contains(s.field())).forEach(out::add);
        for (UsagePartial p : batch.partials()) {
            if (INCIDENT_GAUGES.contains(p.field())) {
                for (int i = 0; i < p.size(); i++) {
                    out.add(p.sample(i));
                }
            }
        }
        return out;
    }

    public Uni<List<UsagePoint>> series(String gpuUuid, UsageField field, Instant from, Instant to) {
        return usage.series(gpuUuid, field == null ? null : field.name(), from, to);
    }

    /**
     * Several cards' series at once, of {@code fields} (every field when empty): one entry per card, in the order
     * given, empty for a card with none; with a {@code step}, each series folded into spans of it from {@code from}
     * ({@link UsageSpans}).
     */
    public Uni<List<CardUsage>> series(List<String> gpuUuids, Set<UsageField> fields, Instant from, Instant to,
                                       Duration step) {
        List<String> names = fields.isEmpty() ? null : fields.stream().map(UsageField::name).toList();
        return usage.seriesOfCards(gpuUuids, names, from, to)
                .map(byCard -> gpuUuids.stream().map(g -> {
                    List<UsagePoint> points = byCard.getOrDefault(g, List.of());
                    return new CardUsage(g, step == null ? points : UsageSpans.fold(points, from, step));
                }).toList());
    }

    private static void validate(UsageBatch batch) {
        if (batch == null) {
            throw ApiProblem.badRequest("body", "a usage batch is required");
        }
        ClusterName.require("cluster", batch.cluster());
        for (int i = 0; i < batch.samples().size(); i++) {
            UsageSample s = batch.samples().get(i);
            String at = "samples[" + i + "].";
            requireSeries(at, s.gpuUuid(), s.scope(), s.field());
            if (s.at() == null) {
                throw ApiProblem.badRequest(at + "at", at + "at is required");
            }
            requireValue(at + "value", s.value());
        }
        for (int i = 0; i < batch.partials().size(); i++) {
            validate("partials[" + i + "].", batch.partials().get(i));
        }
    }

    private static void validate(String at, UsagePartial p) {
        requireSeries(at, p.gpuUuid(), p.scope(), p.field());
        if (p.minute() == null || !p.minute().equals(p.minute().truncatedTo(ChronoUnit.MINUTES))) {
            throw ApiProblem.badRequest(at + "minute", at + "minute is required, a whole minute such as 2026-07-01T10:00:00Z");
        }
        if (p.millis() == null || p.values() == null || p.millis().length != p.values().length || p.values().length == 0) {
            throw ApiProblem.badRequest(at + "values", at + "millis and values are required, non-empty and of one length");
        }
        for (int j = 0; j < p.millis().length; j++) {
            if (p.millis()[j] < 0 || p.millis()[j] >= 60_000) {
                throw ApiProblem.badRequest(at + "millis[" + j + "]", at + "millis[" + j
                        + "] must be 0..59999 (milliseconds into the minute), got " + p.millis()[j]);
            }
            requireValue(at + "values[" + j + "]", p.values()[j]);
        }
    }

    private static void requireSeries(String at, String gpuUuid, Object scope, Object field) {
        if (gpuUuid == null || gpuUuid.isBlank()) {
            throw ApiProblem.badRequest(at + "gpuUuid", at + "gpuUuid is required");
        }
        if (scope == null) {
            throw ApiProblem.badRequest(at + "scope", at + "scope is required");
        }
        if (field == null) {
            throw ApiProblem.badRequest(at + "field", at + "field is required");
        }
        if (field instanceof UsageField f && f.derived()) {
            throw ApiProblem.badRequest(at + "field", at + "field " + f + " is derived by the ledger from the card's "
                    + "counter; send the counter (" + java.util.Arrays.stream(CounterField.values())
                    .filter(c -> c.derived() == f).findFirst().orElseThrow().raw() + ")");
        }
    }

    private static void requireValue(String name, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw ApiProblem.badRequest(name, name + " must be a finite number >= 0, got " + value);
        }
    }
}
