package io.gpumeter.ledger.triage.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.repository.ChangeRepository.Scope;
import io.gpumeter.ledger.governance.repository.ChangeRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The change book's entries in a triage's scope: the changes of the subject's nodes and the cluster-wide ones from
 * the look-back ({@code gpumeter.ledger.changes.look-back}) before the cause began up to {@code at} (both included),
 * newest first, at most {@value #MOST}; one bulk read of the book whatever the number of nodes.
 */
@ApplicationScoped
public class ChangeReader {

    /** The most changes an answer carries. */
    public static final int MOST = 20;

    private final ChangeRepository changes;
    private final Duration lookBack;

    public ChangeReader(ChangeRepository changes, LedgerConfig config) {
        this.changes = changes;
        this.lookBack = config.changes().lookBack();
    }

    public Uni<List<BookedChange>> before(String cluster, Collection<String> nodes, Instant since, Instant at) {
        Instant from = (since != null && since.isBefore(at) ? since : at).minus(lookBack);
        // the book keeps microseconds: one more makes the window end at the instant, inclusive
        Instant to = at.plus(1, ChronoUnit.MICROS);
        List<Scope> scopes = new ArrayList<>();
        scopes.add(new Scope(cluster, null, from, to, Set.of(), true, MOST, true, false));
        for (String node : nodes) {
            scopes.add(new Scope(cluster, node, from, to, Set.of(), false, MOST, true));
        }
        return changes.bulk(scopes).map(found -> {
            Map<String, BookedChange> byId = new LinkedHashMap<>();
            found.forEach(s -> s.changes().forEach(c -> byId.putIfAbsent(c.id(), c)));
            return byId.values().stream()
                    .sorted(Comparator.comparing(BookedChange::at, Comparator.reverseOrder()).thenComparing(BookedChange::id))
                    .limit(MOST).toList();
        });
    }
}
