package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.BookFinding;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.repository.GrantFindingRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.List;

/**
 * Keeps the HAMi grants a derivation refused with the pods' books, counts each one the first time it is found on
 * {@code gpumeter_ledger_hami_grants_unverified_total{check}}, and words them for the intake's answer.
 */
@ApplicationScoped
public class GrantFindings {

    static final String COUNTER = "gpumeter_ledger_hami_grants_unverified";

    private final GrantFindingRepository repository;
    private final MeterRegistry registry;

    public GrantFindings(GrantFindingRepository repository, MeterRegistry registry) {
        this.repository = repository;
        this.registry = registry;
    }

    /** Replaces the findings of these pods, inside the caller's transaction, and answers them in words. */
    public Uni<List<BookFinding>> replace(SqlConnection conn, String cluster, Collection<String> podUids,
                                          List<GrantFinding> findings) {
        if (podUids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return repository.replace(conn, cluster, podUids, findings)
                .invoke(fresh -> fresh.forEach((check, n) ->
                        registry.counter(COUNTER, "check", check.name()).increment(n)))
                .replaceWith(() -> findings.stream().map(GrantFindings::words).toList());
    }

    static BookFinding words(GrantFinding f) {
        return new BookFinding(GrantFinding.KIND, f.namespace() + "/" + f.pod() + " (uid " + f.podUid() + ")",
                f.gpuUuid(), f.check().name(), f.check().words() + ": " + f.detail());
    }
}
