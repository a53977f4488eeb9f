package io.gpumeter.slo.triage;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.InterferenceFactor;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.service.ChangesBefore;
import io.gpumeter.slo.service.InterferenceService;
import io.gpumeter.slo.service.JitterAttribution;
import io.gpumeter.slo.service.JitterEvidence;
import io.gpumeter.slo.service.JitterService;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Neighbourhood;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Spell;
import io.gpumeter.slo.triage.TriageReads.EventRow;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a triage reads about one slow spell of a service: the neighbours on its cards (the jitter event's stored
 * evidence, else the ledger at its start), the change book before it, its interference factor, and the other
 * services' spells that overlapped it on its cards; each a bounded number of bulk reads.
 */
@ApplicationScoped
public class SpellReads {

    private final TriageReads reads;
    private final JitterService jitter;
    private final JitterAttribution attribution;
    private final InterferenceService interference;
    private final ChangesBefore changes;
    private final SloConfig config;

    public SpellReads(TriageReads reads, JitterService jitter, JitterAttribution attribution,
                      InterferenceService interference, ChangesBefore changes, SloConfig config) {
        this.reads = reads;
        this.jitter = jitter;
        this.attribution = attribution;
        this.interference = interference;
        this.changes = changes;
        this.config = config;
    }

    /**
     * The suspects of the spell — its neighbours, the host's and the cards' pressures — and what of them could not be
     * measured (null: not read): the jitter event's stored evidence, or read from the ledger at its start.
     */
    record Found(Neighbourhood neighbourhood, List<PerformanceCause.Signal> signals, boolean read,
                 List<JitterEvidence.Unmeasured> unmeasured) {
    }

    Uni<Found> neighbourhood(EventRow event, Instant start, Instant end, Set<String> spellPods,
                                     Set<String> allPods) {
        if (event != null) {
            return jitter.get(event.id()).map(e -> {
                JitterEvidence x = e.evidence();
                return new Found(new Neighbourhood("jitter event " + event.id() + "'s evidence, read at its first bad"
                        + " minute " + event.start(), orEmpty(x.pods()), orEmpty(x.neighbours()), orEmpty(x.gaps())),
                        signals(event.suspects(), event.ownCurves()), read(event.gaps(), event.placedPods()),
                        x.unmeasured());
            });
        }
        TimeWindow curve = new TimeWindow(start.minus(config.jitter().curveMargin()), end);
        return attribution.gather(start, spellPods, allPods, curve, List.of(), List.of()).map(x -> {
            int placed = (int) orEmpty(x.pods()).stream().filter(p -> !p.gpus().isEmpty()).count();
            return new Found(new Neighbourhood("the ledger at the spell's first bad minute " + start, orEmpty(x.pods()),
                    orEmpty(x.neighbours()), orEmpty(x.gaps())), signals(x.suspects(), PerformanceCause.ownCurves(x)),
                    read(orEmpty(x.gaps()), placed), x.unmeasured());
        });
    }

    static boolean read(List<String> gaps, int placedPods) {
        return gaps.isEmpty() && placedPods > 0;
    }

    static List<PerformanceCause.Signal> signals(List<SuspectRanking.Suspect> suspects,
                                                         Map<String, Set<String>> own) {
        return orEmpty(suspects).stream().sorted(Comparator.comparingInt(SuspectRanking.Suspect::rank))
                .map(s -> new PerformanceCause.Signal(s, own.getOrDefault(s.key(), Set.of()))).toList();
    }

    Uni<List<Change>> changesBefore(String key, Set<String> pods, TimeWindow placed, Instant at,
                                    ServicePlacements.Placements placements, List<String> notes) {
        if (placements.holdings() == null) {
            return Uni.createFrom().nullItem();
        }
        return changes.of(List.of(new ChangesBefore.Subject(key, pods, placed, at)), placements.holdings())
                .map(found -> {
                    ChangesBefore.Found f = found.get(key);
                    if (f.note() != null) {
                        notes.add("changes: " + f.note());
                    }
                    return f.changes();
                });
    }

    Uni<PerformanceDiagnosis.Interference> interference(TriageRequest r, Sli sli, Instant start, Instant end,
                                                               List<String> notes) {
        Instant from = start.minus(config.triage().baseline());
        Instant earliest = end.minus(config.interference().maxWindow());
        TimeWindow window = new TimeWindow(from.isBefore(earliest) ? earliest : from, end);
        return Uni.createFrom().deferred(() -> interference.report(r.name(), r.namespace(), sli, window))
                .map(report -> factor(report, window, sli))
                .onFailure().recoverWithItem(e -> {
                    notes.add("interference factor: could not be read (" + Answers.reason(e) + ")");
                    return null;
                });
    }

    /** The shared bucket with the most pod-minutes that has a factor, else the one with the most pod-minutes. */
    private static PerformanceDiagnosis.Interference factor(InterferenceService.Report report, TimeWindow window,
                                                            Sli sli) {
        InterferenceFactor.Bucket alone = report.byNeighbours().get(0);
        InterferenceFactor.Bucket shared = report.byNeighbours().stream().skip(1)
                .max(Comparator.comparing((InterferenceFactor.Bucket b) -> b.ifLatency() != null)
                        .thenComparingLong(InterferenceFactor.Bucket::podMinutes))
                .orElseThrow();
        return new PerformanceDiagnosis.Interference(window, sli.name(), shared.bucket(), shared.podMinutes(),
                shared.p99Ms(), alone.p99Ms(), shared.ifLatency());
    }

    /** Other services' spells overlapping this one whose pods were its neighbours, with their requests. */
    Uni<List<PerformanceDiagnosis.Other>> others(Neighbourhood hood, TimeWindow spell, TriageRequest r) {
        Set<String> neighbours = hood.neighbours().stream().map(n -> n.namespace() + "/" + n.pod())
                .collect(Collectors.toCollection(TreeSet::new));
        return reads.eventsAmong(neighbours, spell, r.name(), r.namespace()).chain(rows -> {
            if (rows.isEmpty()) {
                return Uni.createFrom().item(List.<PerformanceDiagnosis.Other>of());
            }
            Instant from = rows.stream().map(EventRow::start).min(Comparator.naturalOrder()).orElseThrow()
                    .minus(config.triage().baseline());
            Instant to = rows.stream().map(EventRow::end).max(Comparator.naturalOrder()).orElseThrow();
            return reads.requests(rows.stream().map(EventRow::serviceKey).toList(), new TimeWindow(from, to))
                    .map(requests -> rows.stream().map(row -> new PerformanceDiagnosis.Other(spell(row),
                            requests.get(row.serviceKey()), row.podsAmong())).toList());
        });
    }

    static Spell spell(EventRow e) {
        return new Spell(e.serviceKey(), e.id(), e.start(), e.end(), signals(e.suspects(), e.ownCurves()),
                read(e.gaps(), e.placedPods()), e.pods(), e.unmeasured());
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
