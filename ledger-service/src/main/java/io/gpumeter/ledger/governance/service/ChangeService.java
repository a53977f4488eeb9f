package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.ChangeKind;
import io.gpumeter.ledger.governance.domain.FailureRow;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.domain.XidCatalog;
import io.gpumeter.ledger.governance.repository.ChangeRepository.Scope;
import io.gpumeter.ledger.governance.repository.ChangeRepository.ScopeChanges;
import io.gpumeter.ledger.governance.repository.ChangeRepository;
import io.gpumeter.ledger.governance.repository.FailureExposureRepository;
import io.gpumeter.ledger.governance.repository.FailureExposureRepository.NodeHours;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Reads the change book: a window of it, many scopes at once, and what a change did to the nodes it touched. */
@ApplicationScoped
public class ChangeService {

    private final ChangeRepository changes;
    private final IncidentRepository incidents;
    private final FailureExposureRepository exposure;
    private final Clock clock;
    private final Duration impactWindow;

    public ChangeService(ChangeRepository changes, IncidentRepository incidents, FailureExposureRepository exposure,
                         Clock clock, LedgerConfig config) {
        this.changes = changes;
        this.incidents = incidents;
        this.exposure = exposure;
        this.clock = clock;
        this.impactWindow = config.changes().impactWindow();
    }

    public Uni<Page<BookedChange>> list(Instant from, Instant to, String cluster, String node, Set<ChangeKind> kinds,
                                        Window window) {
        Params.window(from, to);
        return changes.listed(from, to, cluster, node, kinds, window);
    }

    public Uni<List<ScopeChanges>> bulk(List<Scope> scopes) {
        return changes.bulk(scopes);
    }

    /** Kinds named comma-separated (or in several values), each one of {@link ChangeKind}; none names all. */
    public static Set<ChangeKind> kinds(String field, List<String> values) {
        Set<ChangeKind> out = EnumSet.noneOf(ChangeKind.class);
        if (values == null) {
            return out;
        }
        for (String value : values) {
            if (value == null) {
                continue;
            }
            for (String part : value.split(",")) {
                if (!part.isBlank()) {
                    out.add(Params.oneOf(field, part.trim(), ChangeKind.values(), Enum::name));
                }
            }
        }
        return out;
    }

    /** The failures, MTTR and Xids of one window over the nodes a change touched, with the GPU-hours they count over. */
    public record Side(Instant from, Instant to, BigDecimal gpuHours, long podStarts, int failures,
                       BigDecimal ratePer1000GpuHours, BigDecimal mttrP50Seconds, BigDecimal mttrMeanSeconds,
                       List<FailureRow> byCause, Map<Integer, Integer> xids) {
    }

    /** A change and the windows before and after it over the nodes it touched. */
    public record Impact(BookedChange change, List<String> nodes, Side before, Side after) {
    }

    /**
     * The nodes a change touched (its node; every node of its cluster for a cluster-wide change) over [from, at) and
     * [at, to). A bound not given mirrors the other around the change, and with neither the configured window is taken
     * on both sides, so the two windows have the same length unless the request says otherwise.
     */
    public Uni<Impact> impact(String id, Instant from, Instant to) {
        return changes.byId(id).chain(change -> {
            if (change == null) {
                throw ApiProblem.notFound("id", "no change " + id);
            }
            Instant at = change.at();
            if (to != null && !to.isAfter(at)) {
                throw ApiProblem.badRequest("to", "to must be after the change at " + at);
            }
            Instant start = from != null ? from : to != null ? at.minus(Duration.between(at, to)) : at.minus(impactWindow);
            Instant end = to != null ? to : at.plus(Duration.between(start, at));
            if (!start.isBefore(at)) {
                throw ApiProblem.badRequest("from", "from must be before the change at " + at);
            }
            if (!end.isAfter(at)) {
                throw ApiProblem.badRequest("to", "to must be after the change at " + at);
            }
            Uni<Set<String>> touched = change.node() != null ? Uni.createFrom().item(Set.of(change.node()))
                    : changes.nodesOf(change.cluster());
            return touched.chain(nodes -> side(change.cluster(), nodes, start, at)
                    .chain(before -> side(change.cluster(), nodes, at, end)
                            .map(after -> new Impact(change, List.copyOf(new TreeSet<>(nodes)), before, after))));
        });
    }

    private Uni<Side> side(String cluster, Set<String> nodes, Instant from, Instant to) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().item(new Side(from, to, BigDecimal.ZERO, 0, 0, null, null, null, List.of(), Map.of()));
        }
        return incidents.startedOn(from, to, cluster, nodes)
                .chain(found -> exposure.hoursOn(from, to, clock.instant(), cluster, nodes)
                        .map(hours -> side(from, to, found, hours)));
    }

    private static Side side(Instant from, Instant to, List<StoredIncident> found, NodeHours hours) {
        Map<String, List<Incident>> byCause = new TreeMap<>();
        List<Incident> all = new ArrayList<>();
        Map<Integer, Integer> xids = new TreeMap<>();
        for (StoredIncident s : found) {
            Incident i = s.incident();
            all.add(i);
            byCause.computeIfAbsent(i.cause(), k -> new ArrayList<>()).add(i);
            Integer code = xidCode(i);
            if (code != null) {
                xids.merge(code, i.occurrences(), Integer::sum);
            }
        }
        List<FailureRow> rows = new ArrayList<>();
        byCause.forEach((cause, list) -> rows.add(FailureRow.of(cause, list.get(0).rootCause().label(), list,
                hours.gpuHours(), hours.podStarts())));
        FailureRow total = FailureRow.of("all", null, all, hours.gpuHours(), hours.podStarts());
        return new Side(from, to, total.gpuHours(), hours.podStarts(), total.count(), total.ratePer1000GpuHours(),
                total.mttrP50Seconds(), total.mttrMeanSeconds(), rows, xids);
    }

    /** The Xid code of a card's Xid incident (kernel log or dcgm-exporter), Xid 79 being filed as gpu-lost. */
    static Integer xidCode(Incident i) {
        if (!"gpu".equals(i.scope()) && !"dcgm".equals(i.scope())) {
            return null;
        }
        if (i.cause().startsWith("xid-")) {
            try {
                return Integer.parseInt(i.cause().substring(4));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return XidCatalog.cause(79).equals(i.cause()) ? 79 : null;
    }
}
