package io.gpumeter.slo.service;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.client.ChangeScope;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.PodHoldings;
import io.gpumeter.slo.client.ScopeChanges;
import io.gpumeter.slo.config.SloConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * "Has something changed recently?" for what slo-service reports: the changes of the ledger's change book in the
 * scope of each subject (a jitter event, a burning SLO) — the nodes its pods held units on, and their clusters'
 * cluster-wide changes — within the look-back before its instant, that instant included, newest first, at most
 * {@value #MOST}. A whole page of subjects costs two ledger reads: where all their pods ran (one holdings read), and
 * the changes of all their nodes (one bulk read of the book). A ledger that does not answer leaves every subject
 * without changes and with a note saying why; the subjects themselves are answered as ever.
 */
@ApplicationScoped
public class ChangesBefore {

    private static final Logger LOG = Logger.getLogger(ChangesBefore.class);

    /** The most changes a subject carries. */
    public static final int MOST = 10;

    /**
     * One subject: its key, its pods ("namespace/pod"), the window they are placed on nodes over, and the instant the
     * look-back ends at.
     */
    public record Subject(String key, Set<String> pods, TimeWindow placed, Instant before) {
    }

    /**
     * A subject's changes, or (null) none read and a note why: the ledger could not be read, or its pods were on no
     * node the ledger knows.
     */
    public record Found(List<Change> changes, String note) {

        static Found unread(String note) {
            return new Found(null, note);
        }
    }

    /** A node of a cluster. */
    record Node(String cluster, String node) {
    }

    private final LedgerClient ledger;
    private final Duration lookBack;

    public ChangesBefore(LedgerClient ledger, SloConfig config) {
        this.ledger = ledger;
        this.lookBack = config.changes().lookBack();
    }

    public Duration lookBack() {
        return lookBack;
    }

    /** Each subject's changes by key; no ledger read for no subjects. */
    public Uni<Map<String, Found>> of(List<Subject> subjects) {
        if (subjects.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        Set<String> pods = new TreeSet<>();
        subjects.forEach(s -> pods.addAll(s.pods()));
        Instant from = subjects.stream().map(s -> s.placed().start()).min(Comparator.naturalOrder()).orElseThrow();
        Instant to = subjects.stream().map(s -> s.placed().end()).max(Comparator.naturalOrder()).orElseThrow();
        Uni<Map<String, List<PodHoldings.Holding>>> held = pods.isEmpty() ? Uni.createFrom().item(Map.of())
                : ledger.holdings(pods, new TimeWindow(from, to));
        return unreadAsNote(subjects, held.chain(holdings -> readPlaced(subjects, holdings)));
    }

    /**
     * Like {@link #of(List)}, for a caller that has read where the subjects' pods ran already (the ledger's holdings
     * of them over their windows): one read of the book.
     */
    public Uni<Map<String, Found>> of(List<Subject> subjects, Map<String, List<PodHoldings.Holding>> holdings) {
        if (subjects.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return unreadAsNote(subjects, Uni.createFrom().deferred(() -> readPlaced(subjects, holdings)));
    }

    private Uni<Map<String, Found>> readPlaced(List<Subject> subjects,
                                               Map<String, List<PodHoldings.Holding>> holdings) {
        Map<String, Set<Node>> nodes = new LinkedHashMap<>();
        subjects.forEach(s -> nodes.put(s.key(), nodesOf(s, holdings)));
        return read(subjects, nodes);
    }

    private static Uni<Map<String, Found>> unreadAsNote(List<Subject> subjects, Uni<Map<String, Found>> read) {
        return read.onFailure().recoverWithItem(e -> {
            LOG.warnf("The change book could not be read: %s", Answers.reason(e));
            Map<String, Found> out = new HashMap<>();
            Found note = Found.unread("ledger: the changes before could not be read (" + Answers.reason(e) + ")");
            subjects.forEach(s -> out.put(s.key(), note));
            return out;
        });
    }

    /** The nodes the subject's pods held units on during its window. */
    static Set<Node> nodesOf(Subject s, Map<String, List<PodHoldings.Holding>> holdings) {
        Set<Node> out = new LinkedHashSet<>();
        for (String pod : s.pods()) {
            for (PodHoldings.Holding h : holdings.getOrDefault(pod, List.of())) {
                Occupant o = h.occupant();
                boolean during = h.from().isBefore(s.placed().end()) && h.to().isAfter(s.placed().start());
                if (during && o != null && o.cluster() != null && o.node() != null) {
                    out.add(new Node(o.cluster(), o.node()));
                }
            }
        }
        return out;
    }

    private Uni<Map<String, Found>> read(List<Subject> subjects, Map<String, Set<Node>> nodes) {
        // one scope per node and window, however many subjects share it
        Map<ChangeScope, Integer> index = new LinkedHashMap<>();
        Map<String, List<ChangeScope>> scopesOf = new HashMap<>();
        for (Subject s : subjects) {
            String from = s.before().minus(lookBack).toString();
            // the book keeps microseconds: one more ends the window at the subject's instant, inclusive
            String to = s.before().plus(1, ChronoUnit.MICROS).toString();
            List<ChangeScope> mine = new ArrayList<>();
            for (Node n : nodes.get(s.key())) {
                ChangeScope scope = new ChangeScope(n.cluster(), n.node(), from, to, true, MOST, true);
                index.putIfAbsent(scope, index.size());
                mine.add(scope);
            }
            scopesOf.put(s.key(), mine);
        }
        List<ChangeScope> scopes = List.copyOf(index.keySet());
        Uni<List<ScopeChanges>> read = scopes.isEmpty() ? Uni.createFrom().item(List.of()) : ledger.changes(scopes);
        return read.map(found -> {
            Map<String, Found> out = new HashMap<>();
            for (Subject s : subjects) {
                List<ChangeScope> mine = scopesOf.get(s.key());
                if (mine.isEmpty()) {
                    out.put(s.key(), new Found(List.of(), "the ledger placed none of its pods on a node during "
                            + s.placed().start() + " to " + s.placed().end() + ": no node's or cluster's changes to read"));
                    continue;
                }
                Map<String, Change> byId = new LinkedHashMap<>();
                for (ChangeScope scope : mine) {
                    List<Change> changes = found.get(index.get(scope)).changes();
                    (changes == null ? List.<Change>of() : changes).forEach(c -> byId.putIfAbsent(c.cluster() + "/" + c.id(), c));
                }
                out.put(s.key(), new Found(byId.values().stream()
                        .sorted(Comparator.comparing(Change::at).reversed().thenComparing(Change::id))
                        .limit(MOST).toList(), null));
            }
            return out;
        });
    }
}
