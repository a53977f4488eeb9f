package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.config.ViolationConfig;
import io.gpumeter.ledger.repository.DraFindingRepository;
import io.gpumeter.ledger.repository.ViolationRepository;
import io.gpumeter.ledger.violation.domain.DriftRule;
import io.gpumeter.ledger.violation.domain.Violation;
import io.gpumeter.ledger.violation.domain.ViolationRules;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Q7: who uses more than allocated, who uses a card without an allocation, and where the quota books drift; beside
 * them, what the derivation of DRA claims found amiss.
 */
@ApplicationScoped
public class ViolationService {

    /** Violations are judged minute by minute: a week is the most one request reads. */
    static final Duration MAX_WINDOW = Duration.ofDays(7);

    private final ViolationRepository repository;
    private final ViolationRules rules;
    private final DriftRule drift;
    private final DraFindingRepository dra;
    private final HamiFindingsService hami;

    public ViolationService(ViolationRepository repository, ViolationConfig config, DraFindingRepository dra,
                            HamiFindingsService hami) {
        this.hami = hami;
        this.repository = repository;
        this.dra = dra;
        this.rules = new ViolationRules(config.tolerance(), config.hardAfter());
        this.drift = new DriftRule(config.driftTolerance(), config.driftFloorMib());
    }

    public Uni<List<Violation>> find(Instant from, Instant to) {
        TimeWindow window = Params.window(from, to, MAX_WINDOW);
        return repository.holdings(window)
                .chain(holdings -> repository.containerMinutes(window)
                        .chain(minutes -> repository.processMinutes(window)
                                .map(processes -> {
                                    List<Violation> found = new ArrayList<>(rules.find(minutes, holdings));
                                    found.addAll(rules.bypasses(processes, holdings));
                                    return found;
                                })))
                .chain(overUse -> repository.cardMemoryMinutes(window)
                        .map(cards -> {
                            List<Violation> all = new ArrayList<>(overUse);
                            all.addAll(drift.find(cards));
                            return all;
                        }))
                .chain(found -> dra.adminAccessUnlabelled(window)
                        .chain(admin -> dra.consumersInOtherNamespaces(window)
                                .chain(consumers -> hami.violations(window).map(hamiFound -> {
                                    List<Violation> all = new ArrayList<>(found);
                                    all.addAll(admin);
                                    all.addAll(consumers);
                                    all.addAll(hamiFound);
                                    // a finding may name no card
                                    all.sort(Comparator.comparing(Violation::start).thenComparing(Violation::gpuUuid,
                                            Comparator.nullsLast(Comparator.naturalOrder())));
                                    return all;
                                }))));
    }
}
