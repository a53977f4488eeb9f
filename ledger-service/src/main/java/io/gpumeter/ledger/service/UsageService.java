package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.domain.UsagePoint;
import io.gpumeter.ledger.governance.service.IncidentBooks;
import io.gpumeter.ledger.repository.UsageRepository;
import io.gpumeter.ledger.repository.ClusterLock;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;

/**
 * Stores usage samples into the minute rollups and learns from their pod labels which cards anonymous
 * allocations hold, re-deriving those pods; changes of a card's Xid gauge and of its memory-health series become
 * failure incidents — all in one transaction per batch.
 */
@ApplicationScoped
public class UsageService {

    /** What a usage batch did: samples counted for the first time, and samples already counted. */
    public record UsageResult(int accepted, int duplicates, int podsBound) {
    }

    private final Pool pool;
    private final UsageRepository usage;
    private final AllocationBooks books;
    private final IncidentBooks incidentBooks;

    public UsageService(Pool pool, UsageRepository usage, AllocationBooks books, IncidentBooks incidentBooks) {
        this.incidentBooks = incidentBooks;
        this.pool = pool;
        this.usage = usage;
        this.books = books;
    }

    public Uni<UsageResult> ingest(UsageBatch batch) {
        validate(batch);
        String cluster = batch.cluster();
        List<UsageSample> samples = batch.samples();
        return pool.withTransaction(conn -> ClusterLock.take(conn, ClusterLock.INGEST, cluster)
                .chain(() -> usage.ensurePartitions(conn, samples))
                .chain(() -> usage.addSamples(conn, cluster, samples))
                .call(() -> incidentBooks.recordXidGauge(conn, cluster, samples))
                .call(() -> incidentBooks.recordHealthGauges(conn, cluster, samples))
                .chain(added -> usage.bind(conn, cluster, samples)
                        .chain(bound -> usage.podUids(conn, cluster, bound))
                        .chain(uids -> books.rederive(conn, cluster, uids).replaceWith(uids.size()))
                        .map(bound -> new UsageResult(added, samples.size() - added, bound))));
    }

    public Uni<List<UsagePoint>> series(String gpuUuid, UsageField field, Instant from, Instant to) {
        return usage.series(gpuUuid, field == null ? null : field.name(), from, to);
    }

    private static void validate(UsageBatch batch) {
        if (batch == null) {
            throw ApiProblem.badRequest("body", "a usage batch is required");
        }
        ClusterName.require("cluster", batch.cluster());
        for (int i = 0; i < batch.samples().size(); i++) {
            UsageSample s = batch.samples().get(i);
            String at = "samples[" + i + "].";
            if (s.gpuUuid() == null || s.gpuUuid().isBlank()) {
                throw ApiProblem.badRequest(at + "gpuUuid", at + "gpuUuid is required");
            }
            if (s.scope() == null) {
                throw ApiProblem.badRequest(at + "scope", at + "scope is required");
            }
            if (s.field() == null) {
                throw ApiProblem.badRequest(at + "field", at + "field is required");
            }
            if (s.at() == null) {
                throw ApiProblem.badRequest(at + "at", at + "at is required");
            }
            if (!Double.isFinite(s.value()) || s.value() < 0) {
                throw ApiProblem.badRequest(at + "value", at + "value must be a finite number >= 0, got " + s.value());
            }
        }
    }
}
