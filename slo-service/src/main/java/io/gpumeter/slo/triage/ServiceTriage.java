package io.gpumeter.slo.triage;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.repository.LatencyRepository;
import io.gpumeter.slo.triage.PerformanceDiagnosis.SloReading;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Spell;
import io.gpumeter.slo.triage.TriageReads.EventRow;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Triage of an inference service at an instant: whether it was slow then (a jitter event, or a burning SLO, in the
 * look-back before, {@link SloReadings}), and why, from slo-service's own store and a bounded number of the ledger's
 * bulk reads (where its pods ran, {@link ServicePlacements}; their cards' neighbours for a spell no jitter event
 * attributed, the interference factor's placements, the change book, {@link SpellReads}), whatever the number of pods,
 * events or services. The decision itself is {@link PerformanceDiagnosis}'s. It writes nothing.
 */
@ApplicationScoped
public class ServiceTriage {

    /** The longest name the latency intake stores. */
    static final int MAX_NAME = 253;

    private final TriageReads reads;
    private final LatencyRepository latency;
    private final SloReadings slos;
    private final ServicePlacements placements;
    private final SpellReads spells;
    private final SloConfig config;
    private final Clock clock;
    private final TriageCommands commands;

    public ServiceTriage(TriageReads reads, LatencyRepository latency, SloReadings slos, ServicePlacements placements,
                         SpellReads spells, SloConfig config, Clock clock) {
        this.reads = reads;
        this.latency = latency;
        this.slos = slos;
        this.placements = placements;
        this.spells = spells;
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
            throw ApiProblem.badRequest(request.kind().parameter(), "slo-service triages inference services: name"
                    + " service= (with namespace); pods, workloads, pod groups and nodes are the ledger's to triage");
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
                    .chain(history -> slos.of(name, ns, look).chain(readings -> {
                        List<EventRow> current = history.stream().filter(e -> e.end().isAfter(look.start())).toList();
                        Instant firstBad = readings.firstBad();
                        if (current.isEmpty() && firstBad == null) {
                            return healthy(request, at, look, readings.readings());
                        }
                        return slow(request, at, look, history, current, readings);
                    }));
        });
    }

    /** NONE: the ledger is asked only who the service's recent pods belong to. */
    private Uni<Triage> healthy(TriageRequest r, Instant at, TimeWindow look, List<SloReading> readings) {
        TimeWindow placed = new TimeWindow(look.start().minus(config.triage().baseline()), look.end());
        return latency.podRequests(r.name(), r.namespace(), placed).chain(requests -> {
            Set<String> pods = requests.stream().map(p -> p.namespace() + "/" + p.pod())
                    .collect(Collectors.toCollection(TreeSet::new));
            return placements.of(pods, placed, r.cluster()).map(p -> PerformanceDiagnosis.healthy(
                    ServicePlacements.subject(r, p), at, look, readings, p.note() == null ? List.of() : List.of(p.note())));
        });
    }

    private Uni<Triage> slow(TriageRequest r, Instant at, TimeWindow look, List<EventRow> history,
                             List<EventRow> current, SloReadings.Readings readings) {
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
            return spells.neighbourhood(event, start, end, spellPods, allPods).chain(found -> placements.of(allPods, placed,
                    r.cluster()).chain(ran -> {
                Triage.Subject subject = ServicePlacements.subject(r, ran);
                List<String> notes = new ArrayList<>();
                if (ran.note() != null) {
                    notes.add(ran.note());
                }
                Sli sli = event != null ? Sli.valueOf(event.sli()) : readings.sli() != null && readings.sli().isLatency()
                        ? readings.sli() : Sli.TTFT;
                return spells.changesBefore(key, spellPods.isEmpty() ? allPods : spellPods, placed, at, ran, notes)
                        .chain(changed -> spells.interference(r, sli, start, end, notes)
                                .chain(factor -> spells.others(found.neighbourhood(), spellWindow, r)
                                        .chain(others -> reads.requests(List.of(key), requestsWindow)
                                                .map(requests -> {
                                                    Spell spell = new Spell(key, event == null ? null : event.id(),
                                                            start, end, found.signals(), found.read(), spellPods,
                                                            found.unmeasured());
                                                    Map<String, String> tenants = ServicePlacements.tenants(allPods, subject,
                                                            found.neighbourhood());
                                                    var inputs = new PerformanceDiagnosis.Inputs(subject, at, look,
                                                            baseline, current.stream().map(ServiceTriage::sign).toList(),
                                                            readings.readings(), spell, found.neighbourhood(),
                                                            requests.get(key), factor, changed,
                                                            history.stream().map(SpellReads::spell).toList(), others,
                                                            tenants, notes);
                                                    return PerformanceDiagnosis.diagnose(inputs, thresholds(), commands);
                                                }))));
            }));
        });
    }

    private static PerformanceDiagnosis.JitterSign sign(EventRow e) {
        return new PerformanceDiagnosis.JitterSign(e.id(), e.slo(), e.sli(), e.start(), e.end(), e.badMinutes(),
                e.peakP99Ms(), e.limitMs());
    }
}
