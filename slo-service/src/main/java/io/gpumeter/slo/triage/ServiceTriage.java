package io.gpumeter.slo.triage;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.PodHoldings;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.AlertState;
import io.gpumeter.slo.domain.BurnAlert;
import io.gpumeter.slo.domain.BurnRates;
import io.gpumeter.slo.domain.InterferenceFactor;
import io.gpumeter.slo.domain.MinuteEvents;
import io.gpumeter.slo.domain.PodMinute;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.domain.SloMinutes;
import io.gpumeter.slo.domain.SloStatus;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.repository.LatencyRepository;
import io.gpumeter.slo.service.ChangesBefore;
import io.gpumeter.slo.service.InterferenceService;
import io.gpumeter.slo.service.JitterAttribution;
import io.gpumeter.slo.service.JitterEvidence;
import io.gpumeter.slo.service.JitterService;
import io.gpumeter.slo.service.SloService;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Neighbourhood;
import io.gpumeter.slo.triage.PerformanceDiagnosis.SloReading;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Spell;
import io.gpumeter.slo.triage.TriageReads.EventRow;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Triage of an inference service at an instant: whether it was slow then (a jitter event, or a burning SLO, in the
 * look-back before), and why, from slo-service's own store and a bounded number of the ledger's bulk reads (where its
 * pods ran, their cards' neighbours for a spell no jitter event attributed, the interference factor's placements,
 * the change book), whatever the number of pods, events or services. It writes nothing.
 */
@ApplicationScoped
public class ServiceTriage {

    /** How often within the look-back each SLO's burn-rate alerts are evaluated (the shortest alert window). */
    static final Duration BURN_STEP = Duration.ofMinutes(5);
    /** The longest name the latency intake stores. */
    static final int MAX_NAME = 253;

    private final TriageReads reads;
    private final LatencyRepository latency;
    private final SloService slos;
    private final JitterService jitter;
    private final JitterAttribution attribution;
    private final InterferenceService interference;
    private final ChangesBefore changes;
    private final LedgerClient ledger;
    private final SloConfig config;
    private final Clock clock;
    private final TriageCommands commands;

    public ServiceTriage(TriageReads reads, LatencyRepository latency, SloService slos, JitterService jitter,
                         JitterAttribution attribution, InterferenceService interference, ChangesBefore changes,
                         LedgerClient ledger, SloConfig config, Clock clock) {
        this.reads = reads;
        this.latency = latency;
        this.slos = slos;
        this.jitter = jitter;
        this.attribution = attribution;
        this.interference = interference;
        this.changes = changes;
        this.ledger = ledger;
        this.config = config;
        this.clock = clock;
        SloConfig.Rules rules = config.rules();
        this.commands = new TriageCommands(rules.requestsMetric().orElse(rules.e2eHistogram() + "_count"),
                rules.namespaceLabel(), rules.serviceLabel());
    }

    private PerformanceCause.Thresholds thresholds() {
        return new PerformanceCause.Thresholds(config.triage().loadRise(), config.triage().minActivityRise());
    }

    /**
     * @throws ApiProblem 400 naming the field for a subject that is not a service or a malformed name, 404 naming
     *                    {@code service} for a service slo-service knows nothing of
     */
    public Uni<Triage> diagnose(TriageRequest request) {
        if (request.kind() != Triage.SubjectKind.SERVICE) {
            String field = switch (request.kind()) {
                case POD -> "pod";
                case WORKLOAD -> "workload";
                case POD_GROUP -> "podGroup";
                default -> "node";
            };
            throw ApiProblem.badRequest(field, "slo-service triages inference services: name service= (with"
                    + " namespace); pods, workloads, pod groups and nodes are the ledger's to triage");
        }
        if (request.name().length() > MAX_NAME) {
            throw ApiProblem.badRequest("service", "service must be a name of at most " + MAX_NAME + " characters");
        }
        if (request.namespace().length() > MAX_NAME) {
            throw ApiProblem.badRequest("namespace", "namespace must be a name of at most " + MAX_NAME + " characters");
        }
        Instant at = request.at() == null ? clock.instant() : request.at();
        // whole minutes before at, as an SLO's status reads them
        Instant end = at.truncatedTo(ChronoUnit.MINUTES);
        TimeWindow look = new TimeWindow(end.minus(config.triage().lookBack()), end);
        String name = request.name();
        String ns = request.namespace();
        return reads.known(name, ns).chain(known -> {
            if (!known.any()) {
                throw ApiProblem.notFound("service", "slo-service knows no service '" + name + "' in namespace '" + ns
                        + "': no SLO selects it, and no pod of it has reported requests or jitter");
            }
            return reads.eventsOf(name, ns, new TimeWindow(end.minus(PerformanceDiagnosis.RECURRENCE), end))
                    .chain(history -> sloReadings(name, ns, look).chain(readings -> {
                        List<EventRow> current = history.stream().filter(e -> e.end().isAfter(look.start())).toList();
                        Instant firstBad = readings.firstBad();
                        if (current.isEmpty() && firstBad == null) {
                            return healthy(request, at, look, readings.readings());
                        }
                        return slow(request, at, look, history, current, readings);
                    }));
        });
    }

    /** The service's SLOs over the look-back and the first bad minute of those that burned in it (null: none did). */
    private record Readings(List<SloReading> readings, Instant firstBad, Sli sli) {
    }

    /**
     * Each service SLO of the service evaluated every {@link #BURN_STEP} across the look-back, from one read of the
     * pod-minutes per SLI (however many SLOs share it). A legacy SLO without a namespace is read in the one asked.
     */
    private Uni<Readings> sloReadings(String service, String ns, TimeWindow look) {
        return slos.list().chain(all -> {
            List<SloDefinition> mine = all.stream().map(SloService.Stored::definition)
                    .filter(d -> !d.selector().byTenant() && service.equals(d.service())
                            && (ns.equals(d.namespace()) || d.namespace() == null))
                    .map(d -> d.namespace() == null ? d.with(d.selector().in(ns)) : d)
                    .toList();
            Map<Sli, List<SloDefinition>> bySli = new TreeMap<>();
            mine.forEach(d -> bySli.computeIfAbsent(d.sli(), s -> new ArrayList<>()).add(d));
            return Multi.createFrom().iterable(bySli.entrySet())
                    .onItem().transformToUniAndConcatenate(e -> {
                        Duration span = e.getValue().stream().map(SloDefinition::window).reduce(longestAlert(),
                                (a, b) -> a.compareTo(b) >= 0 ? a : b);
                        return latency.podMinutes(e.getKey(), service, ns, null,
                                        new TimeWindow(look.start().minus(span), look.end()))
                                .map(pods -> e.getValue().stream().map(d -> read(d, pods, look)).toList());
                    })
                    .collect().asList()
                    .map(lists -> {
                        List<Read> read = lists.stream().flatMap(List::stream)
                                .sorted(Comparator.comparing(r -> r.reading().name())).toList();
                        Read first = read.stream().filter(r -> r.firstBad() != null)
                                .min(Comparator.comparing(Read::firstBad)).orElse(null);
                        return new Readings(read.stream().map(Read::reading).toList(),
                                first == null ? null : first.firstBad(), first == null ? null : first.sli());
                    });
        });
    }

    private static Duration longestAlert() {
        return BurnAlert.WORKBOOK.stream().map(BurnAlert::longWindow).max(Comparator.naturalOrder()).orElseThrow();
    }

    /** One SLO read: firstBad is its first bad minute in the look-back when it burned there, else null. */
    private record Read(SloReading reading, Instant firstBad, Sli sli) {
    }

    private static Read read(SloDefinition d, List<PodMinute> pods, TimeWindow look) {
        List<MinuteEvents> minutes = SloMinutes.perMinute(d, pods);
        Instant firstFiring = null;
        String firing = null;
        SloStatus last = null;
        for (Instant t = look.start(); !t.isAfter(look.end()); t = t.plus(BURN_STEP)) {
            SloStatus s = BurnRates.evaluate(d.target(), d.window(), BurnAlert.WORKBOOK, minutes, t);
            last = s;
            if (firstFiring == null && s.alerts().stream().anyMatch(AlertState::firing)) {
                firstFiring = t;
                firing = s.alerts().stream().filter(AlertState::firing).map(ServiceTriage::alert)
                        .collect(Collectors.joining("; "));
            }
        }
        if (!look.end().equals(last == null ? null : last.window().end())) {
            last = BurnRates.evaluate(d.target(), d.window(), BurnAlert.WORKBOOK, minutes, look.end());
        }
        Instant firstBad = null;
        if (firstFiring != null) {
            firstBad = minutes.stream().filter(m -> look.contains(m.minute()) && m.good() < m.total())
                    .map(MinuteEvents::minute).findFirst().orElse(look.start());
        }
        return new Read(new SloReading(d.name(), d.sli().name(), firstFiring, firing, last.state().name(), null),
                firstBad, d.sli());
    }

    private static String alert(AlertState a) {
        return String.format(Locale.ROOT, "%sx over %s and %s (%s; burn rates %s and %s)",
                a.alert().factor().toPlainString(), human(a.alert().longWindow()), human(a.alert().shortWindow()),
                a.alert().severity().name().toLowerCase(Locale.ROOT), a.longWindow().burnRate().stripTrailingZeros()
                        .toPlainString(), a.shortWindow().burnRate().stripTrailingZeros().toPlainString());
    }

    private static String human(Duration d) {
        return d.toMinutes() % (24 * 60) == 0 ? d.toDays() + "d" : d.toMinutes() % 60 == 0 ? d.toHours() + "h"
                : d.toMinutes() + "m";
    }

    /** NONE: the ledger is asked only who the service's recent pods belong to. */
    private Uni<Triage> healthy(TriageRequest r, Instant at, TimeWindow look, List<SloReading> readings) {
        TimeWindow placed = new TimeWindow(look.start().minus(config.triage().baseline()), look.end());
        return latency.podRequests(r.name(), r.namespace(), placed).chain(requests -> {
            Set<String> pods = requests.stream().map(p -> p.namespace() + "/" + p.pod())
                    .collect(Collectors.toCollection(TreeSet::new));
            return placements(pods, placed, r.cluster()).map(p -> PerformanceDiagnosis.healthy(
                    subject(r, p), at, look, readings, p.note() == null ? List.of() : List.of(p.note())));
        });
    }

    /** Where pods ran over a window, or (null holdings) why the ledger could not say. */
    private record Placements(Map<String, List<PodHoldings.Holding>> holdings, String note) {
    }

    private Uni<Placements> placements(Set<String> pods, TimeWindow window, String cluster) {
        if (pods.isEmpty()) {
            return Uni.createFrom().item(new Placements(Map.of(), null));
        }
        return ledger.holdings(pods, window)
                .map(held -> {
                    if (cluster == null) {
                        return new Placements(held, null);
                    }
                    Map<String, List<PodHoldings.Holding>> in = new HashMap<>();
                    held.forEach((pod, units) -> in.put(pod, units.stream()
                            .filter(h -> h.occupant() != null && cluster.equals(h.occupant().cluster())).toList()));
                    return new Placements(in, null);
                })
                .onFailure().recoverWithItem(e -> new Placements(null, "ledger: where its pods ran could not be read ("
                        + Answers.reason(e) + "); its tenant, nodes and changes are not known"));
    }

    /** The subject with the tenant and cluster of the pods the ledger placed. */
    private static Triage.Subject subject(TriageRequest r, Placements p) {
        Set<String> tenants = new TreeSet<>();
        Set<String> clusters = new TreeSet<>();
        if (p.holdings() != null) {
            p.holdings().values().forEach(units -> units.forEach(h -> {
                Occupant o = h.occupant();
                if (o != null && o.tenant() != null) {
                    tenants.add(o.tenant());
                }
                if (o != null && o.cluster() != null) {
                    clusters.add(o.cluster());
                }
            }));
        }
        String cluster = r.cluster() != null ? r.cluster() : clusters.size() == 1 ? clusters.iterator().next() : null;
        // a namespace belongs to one tenant; pods read as several are named by none rather than by a guess
        String tenant = tenants.size() == 1 ? tenants.iterator().next() : null;
        return new Triage.Subject(Triage.SubjectKind.SERVICE, cluster, r.namespace(), r.name(), null, tenant);
    }

    private Uni<Triage> slow(TriageRequest r, Instant at, TimeWindow look, List<EventRow> history,
                             List<EventRow> current, Readings readings) {
        Duration baseline = config.triage().baseline();
        EventRow event = current.stream().max(Comparator.comparing(EventRow::start)).orElse(null);
        Instant start = event != null ? event.start() : readings.firstBad();
        Instant end = event != null && event.end().isBefore(look.end()) ? event.end() : look.end();
        TimeWindow placed = new TimeWindow(start.minus(baseline), end);
        String key = r.namespace() + "/" + r.name();
        Instant since = look.end().minus(PerformanceDiagnosis.RECURRENCE);
        TimeWindow requestsWindow = new TimeWindow((since.isBefore(start) ? since : start).minus(baseline), look.end());
        return latency.podRequests(r.name(), r.namespace(), placed).chain(podRequests -> {
            Set<String> allPods = new TreeSet<>();
            Set<String> spellPods = new TreeSet<>();
            TimeWindow spellWindow = new TimeWindow(start, end);
            podRequests.forEach(p -> {
                allPods.add(p.namespace() + "/" + p.pod());
                if (spellWindow.contains(p.minute())) {
                    spellPods.add(p.namespace() + "/" + p.pod());
                }
            });
            return neighbourhood(event, start, end, spellPods, allPods).chain(found -> placements(allPods, placed,
                    r.cluster()).chain(placements -> {
                Triage.Subject subject = subject(r, placements);
                List<String> notes = new ArrayList<>();
                if (placements.note() != null) {
                    notes.add(placements.note());
                }
                Sli sli = event != null ? Sli.valueOf(event.sli()) : readings.sli() != null && readings.sli().isLatency()
                        ? readings.sli() : Sli.TTFT;
                return changesBefore(key, spellPods.isEmpty() ? allPods : spellPods, placed, at, placements, notes)
                        .chain(changed -> interference(r, sli, start, end, notes)
                                .chain(factor -> others(found.neighbourhood(), spellWindow, r)
                                        .chain(others -> reads.requests(List.of(key), requestsWindow)
                                                .map(requests -> {
                                                    Spell spell = new Spell(key, event == null ? null : event.id(),
                                                            start, end, found.signals(), found.read(), spellPods);
                                                    Map<String, String> tenants = tenants(allPods, subject,
                                                            found.neighbourhood());
                                                    var inputs = new PerformanceDiagnosis.Inputs(subject, at, look,
                                                            baseline, current.stream().map(ServiceTriage::sign).toList(),
                                                            readings.readings(), spell, found.neighbourhood(),
                                                            requests.get(key), factor, changed,
                                                            history.stream().map(ServiceTriage::spell).toList(), others,
                                                            tenants, notes);
                                                    return PerformanceDiagnosis.diagnose(inputs, thresholds(), commands);
                                                }))));
            }));
        });
    }

    /** The neighbours of the spell: the jitter event's stored evidence, or read from the ledger at its start. */
    private record Found(Neighbourhood neighbourhood, List<PerformanceCause.Signal> signals, boolean read) {
    }

    private Uni<Found> neighbourhood(EventRow event, Instant start, Instant end, Set<String> spellPods,
                                     Set<String> allPods) {
        if (event != null) {
            return jitter.get(event.id()).map(e -> {
                JitterEvidence x = e.evidence();
                return new Found(new Neighbourhood("jitter event " + event.id() + "'s evidence, read at its first bad"
                        + " minute " + event.start(), orEmpty(x.pods()), orEmpty(x.neighbours()), orEmpty(x.gaps())),
                        signals(event.suspects(), event.ownCurves()), read(event.gaps(), event.placedPods()));
            });
        }
        TimeWindow curve = new TimeWindow(start.minus(config.jitter().curveMargin()), end);
        return attribution.gather(start, spellPods, allPods, curve, List.of(), List.of()).map(x -> {
            int placed = (int) orEmpty(x.pods()).stream().filter(p -> !p.gpus().isEmpty()).count();
            return new Found(new Neighbourhood("the ledger at the spell's first bad minute " + start, orEmpty(x.pods()),
                    orEmpty(x.neighbours()), orEmpty(x.gaps())), signals(x.suspects(), PerformanceCause.ownCurves(x)),
                    read(orEmpty(x.gaps()), placed));
        });
    }

    private static boolean read(List<String> gaps, int placedPods) {
        return gaps.isEmpty() && placedPods > 0;
    }

    private static List<PerformanceCause.Signal> signals(List<SuspectRanking.Suspect> suspects,
                                                         Map<String, Set<String>> own) {
        return orEmpty(suspects).stream().sorted(Comparator.comparingInt(SuspectRanking.Suspect::rank))
                .map(s -> new PerformanceCause.Signal(s, own.getOrDefault(s.key(), Set.of()))).toList();
    }

    private Uni<List<io.gpumeter.slo.client.Change>> changesBefore(String key, Set<String> pods, TimeWindow placed,
                                                                  Instant at, Placements placements,
                                                                  List<String> notes) {
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

    private Uni<PerformanceDiagnosis.Interference> interference(TriageRequest r, Sli sli, Instant start, Instant end,
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
    private Uni<List<PerformanceDiagnosis.Other>> others(Neighbourhood hood, TimeWindow spell, TriageRequest r) {
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

    /** The tenant of every pod the answer may name: its own (the subject's) and its neighbours' as the ledger told. */
    private static Map<String, String> tenants(Set<String> pods, Triage.Subject subject, Neighbourhood hood) {
        Map<String, String> out = new LinkedHashMap<>();
        if (subject.tenant() != null) {
            pods.forEach(p -> out.put(p, subject.tenant()));
            hood.pods().forEach(p -> out.put(p.namespace() + "/" + p.pod(), subject.tenant()));
        }
        hood.neighbours().forEach(n -> out.put(n.namespace() + "/" + n.pod(), n.tenant()));
        return out;
    }

    private static PerformanceDiagnosis.JitterSign sign(EventRow e) {
        return new PerformanceDiagnosis.JitterSign(e.id(), e.slo(), e.sli(), e.start(), e.end(), e.badMinutes(),
                e.peakP99Ms(), e.limitMs());
    }

    private static Spell spell(EventRow e) {
        return new Spell(e.serviceKey(), e.id(), e.start(), e.end(), signals(e.suspects(), e.ownCurves()),
                read(e.gaps(), e.placedPods()), e.pods());
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
