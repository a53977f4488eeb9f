package io.gpumeter.ledger.governance.service;

import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.repository.ChangeRepository.Scope;
import io.gpumeter.ledger.governance.repository.ChangeRepository;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What changed before each incident of a page ("has something changed recently?"): the changes of its node and the
 * cluster-wide ones — only those for an incident on no node — within the look-back before its start, the start
 * itself included (a change and the failure it caused can share an instant), newest first, at most
 * {@value #MOST}. The whole page is one bulk read of the change book, each incident one scope of it.
 */
@ApplicationScoped
public class IncidentChanges {

    /** The most changes an incident carries. */
    public static final int MOST = 10;

    private final ChangeRepository changes;
    private final Duration lookBack;

    public IncidentChanges(ChangeRepository changes, LedgerConfig config) {
        this.changes = changes;
        this.lookBack = config.changes().lookBack();
    }

    /** Each incident's changes, keyed by {@link #key}; an empty page reads nothing. */
    public Uni<Map<String, List<BookedChange>>> before(List<StoredIncident> incidents) {
        if (incidents.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        List<Scope> scopes = new ArrayList<>(incidents.size());
        for (StoredIncident s : incidents) {
            Incident i = s.incident();
            // the change book keeps microseconds: one more makes the window end at the start, inclusive
            Instant to = i.startedAt().plus(1, ChronoUnit.MICROS);
            scopes.add(new Scope(s.cluster(), i.node(), i.startedAt().minus(lookBack), to, Set.of(), true, MOST, true,
                    false));
        }
        return changes.bulk(scopes).map(found -> {
            Map<String, List<BookedChange>> out = new HashMap<>();
            for (int n = 0; n < incidents.size(); n++) {
                out.put(key(incidents.get(n)), found.get(n).changes());
            }
            return out;
        });
    }

    /** An incident's key across clusters. */
    public static String key(StoredIncident s) {
        return s.cluster() + '\n' + s.incident().key();
    }
}
