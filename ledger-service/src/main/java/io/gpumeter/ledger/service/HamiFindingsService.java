package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.hami.domain.HamiOvercommit;
import io.gpumeter.ledger.repository.FactRepository;
import io.gpumeter.ledger.repository.GrantFindingRepository;
import io.gpumeter.ledger.violation.domain.Violation;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What the ledger found amiss in HAMi's books over a window: grants it did not book ({@code HAMI_GRANT_UNVERIFIED})
 * and cards promised beyond what HAMi registered ({@code HAMI_OVERCOMMIT}), as entries of the violation read.
 */
@ApplicationScoped
public class HamiFindingsService {

    private final GrantFindingRepository findings;
    private final FactRepository facts;
    private final Pool pool;
    private final Clock clock;

    public HamiFindingsService(GrantFindingRepository findings, FactRepository facts, Pool pool, Clock clock) {
        this.findings = findings;
        this.facts = facts;
        this.pool = pool;
        this.clock = clock;
    }

    /** The grants not booked over the window, a tenant's only when {@code tenant} is given. */
    public Uni<List<GrantFinding>> unverified(TimeWindow window, String tenant) {
        return findings.overlapping(window, tenant);
    }

    public Uni<List<Violation>> violations(TimeWindow window) {
        Instant now = clock.instant();
        return unverified(window, null).map(found -> found.stream().map(f -> violation(f, window, now)).toList())
                .chain(unverified -> overcommits(window, now).map(over -> {
                    List<Violation> all = new ArrayList<>(unverified);
                    all.addAll(over);
                    return all;
                }));
    }

    private Uni<List<Violation>> overcommits(TimeWindow window, Instant now) {
        return findings.heldVgpus(window, now).chain(held -> {
            if (held.isEmpty()) {
                return Uni.createFrom().item(List.<Violation>of());
            }
            Map<String, Set<String>> nodesByCluster = new HashMap<>();
            held.forEach(h -> nodesByCluster.computeIfAbsent(h.held().cluster(), c -> new TreeSet<>()).add(h.node()));
            return pool.withConnection(conn -> {
                List<Uni<List<NodeFact>>> reads = new ArrayList<>();
                List<String> clusters = new ArrayList<>(nodesByCluster.keySet());
                clusters.forEach(c -> reads.add(facts.latestNodes(conn, c, nodesByCluster.get(c))));
                return Uni.join().all(reads).andFailFast().map(perCluster -> {
                    Map<String, RegisteredGpu> registered = new HashMap<>();
                    for (int i = 0; i < clusters.size(); i++) {
                        for (NodeFact node : perCluster.get(i)) {
                            for (RegisteredGpu gpu : node.gpus()) {
                                registered.put(clusters.get(i) + "/" + gpu.uuid(), gpu);
                            }
                        }
                    }
                    return HamiOvercommit.find(held.stream().map(GrantFindingRepository.HeldOnNode::held)
                            .collect(Collectors.toList()), registered);
                });
            });
        });
    }

    private static Violation violation(GrantFinding f, TimeWindow window, Instant now) {
        Instant start = f.since().isBefore(window.start()) ? window.start() : f.since();
        Instant held = f.until() == null ? now : f.until();
        Instant end = held.isAfter(window.end()) ? window.end() : held;
        int minutes = end.isAfter(start) ? (int) Duration.between(start, end).toMinutes() : 0;
        return new Violation(Violation.Kind.HAMI_GRANT_UNVERIFIED, f.check().name(), f.cluster(), f.gpuUuid(),
                f.namespace(), f.pod(), null, f.since(), f.until(), minutes, null,
                f.check().words() + ": " + f.detail());
    }
}
