package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Params;
import io.gpumeter.common.problem.Window;
import io.gpumeter.ledger.governance.domain.FailureRow;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.repository.FailureExposureRepository;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Q8 and checklist 5: failures by cause, root-cause class, node or tenant, with their rate per 1,000 allocated
 * GPU-hours and per GPU pod start of the same group, and MTTR. A card's failure counts once for every tenant that
 * held a unit of it when it failed, a node's failure (MIG reconfiguration, an OOM no pod accounts for) once for
 * every tenant on the node (none: "unallocated").
 */
@ApplicationScoped
public class FailureService {

    /** What failures can be grouped by; the column groups the denominators the same way. */
    public enum GroupBy {
        CAUSE("cause", null), ROOT_CAUSE("rootCause", null), NODE("node", "node"), TENANT("tenant", "tenant");

        final String label;
        final String column;

        GroupBy(String label, String column) {
            this.label = label;
            this.column = column;
        }

        static GroupBy parse(String text) {
            return Params.oneOf("groupBy", text == null || text.isBlank() ? "cause" : text, values(), g -> g.label);
        }
    }

    private final IncidentRepository incidents;
    private final FailureExposureRepository exposure;
    private final TenantResolver tenants;
    private final Clock clock;

    public FailureService(IncidentRepository incidents, FailureExposureRepository exposure, TenantResolver tenants,
                          Clock clock) {
        this.clock = clock;
        this.incidents = incidents;
        this.exposure = exposure;
        this.tenants = tenants;
    }

    public Uni<List<FailureRow>> failures(Instant from, Instant to, String groupBy, String cluster) {
        GroupBy group = GroupBy.parse(groupBy);
        QueueWaitService.window(from, to);
        Instant now = clock.instant();
        // the incidents and the two exposure reads are independent statements: asked at once, each on a connection
        // of its own, the answer waits for the slowest (the exposure's scans of the window's segments)
        var keyedIncidents = incidents.startedIn(from, to, cluster).chain(found -> keyed(found, group));
        return Uni.combine().all().unis(keyedIncidents, exposure.gpuHours(from, to, now, cluster, group.column),
                        exposure.podStarts(from, to, cluster, group.column)).asTuple()
                .map(all -> rows(all.getItem1(), all.getItem2(), all.getItem3(), group));
    }

    /** The window of the incidents that started in [from, to), of one cause and cluster where given. */
    public Uni<Page<StoredIncident>> incidents(Instant from, Instant to, String cause, String cluster, Window window) {
        QueueWaitService.window(from, to);
        return incidents.listed(from, to, false, causeOrNull(cause), cluster, window);
    }

    /** The incidents of a set of pods ("namespace/pod") that started in [from, to), of one cluster where given. */
    public Uni<List<StoredIncident>> incidentsOfPods(Instant from, Instant to, String cluster, List<String> pods) {
        QueueWaitService.window(from, to);
        return incidents.startedOfPods(from, to, cluster, pods);
    }

    /**
     * The incidents neither recovered nor ended, whatever their start: a card waiting weeks for its reset is still
     * failing. A bound given still limits the start; with both, they form a window as for {@link #incidents}.
     */
    public Uni<Page<StoredIncident>> openIncidents(Instant from, Instant to, String cause, String cluster, Window window) {
        if (from != null && to != null) {
            QueueWaitService.window(from, to);
        }
        return incidents.listed(from, to, true, causeOrNull(cause), cluster, window);
    }

    /** The incident of this stable id, or a null item. */
    public Uni<StoredIncident> incident(String id) {
        return incidents.byId(id);
    }

    private static String causeOrNull(String cause) {
        return cause == null || cause.isBlank() ? null : cause;
    }

    /** Each incident under the key(s) it counts for. */
    private Uni<Map<String, List<Incident>>> keyed(List<StoredIncident> found, GroupBy group) {
        Map<String, List<Incident>> out = new TreeMap<>();
        if (group != GroupBy.TENANT) {
            for (StoredIncident s : found) {
                Incident i = s.incident();
                String key = switch (group) {
                    case CAUSE -> i.cause();
                    case ROOT_CAUSE -> i.rootCause().label();
                    default -> i.node() == null ? "unknown" : i.node();
                };
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
            }
            return Uni.createFrom().item(out);
        }
        List<StoredIncident> onPods = found.stream().filter(s -> s.incident().namespace() != null).toList();
        List<StoredIncident> onCards = found.stream().filter(s -> s.incident().namespace() == null).toList();
        return tenants.tenants(TenantResolver.namespaces(onPods, StoredIncident::cluster, s -> s.incident().namespace()))
                .chain(t -> {
                    onPods.forEach(s -> out.computeIfAbsent(t.at(s.cluster(), s.incident().namespace(), s.incident().startedAt()),
                            k -> new ArrayList<>()).add(s.incident()));
                    return cardTenants(onCards, out);
                });
    }

    private Uni<Map<String, List<Incident>>> cardTenants(List<StoredIncident> onCards, Map<String, List<Incident>> out) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (StoredIncident s : onCards) {
            Incident i = s.incident();
            // A failure of the node rather than of one card (a MIG reconfiguration, a kernel OOM no pod accounts for)
            // concerns every tenant on the node.
            boolean wholeNode = i.gpuUuid() == null && !"gpu".equals(i.scope());
            chain = chain.chain(() -> (wholeNode ? exposure.tenantsOnNode(s.cluster(), i.node(), i.startedAt())
                            : exposure.tenantsOnCard(s.cluster(), i.node(), i.gpuUuid(), i.startedAt()))
                    .invoke(held -> (held.isEmpty() ? Set.of("unallocated") : held)
                            .forEach(tenant -> out.computeIfAbsent(tenant, k -> new ArrayList<>()).add(i)))
                    .replaceWithVoid());
        }
        return chain.map(ignored -> out);
    }

    private static List<FailureRow> rows(Map<String, List<Incident>> keyed, Map<String, BigDecimal> hours,
                                         Map<String, Long> starts, GroupBy group) {
        List<FailureRow> rows = new ArrayList<>();
        keyed.forEach((key, list) -> {
            String denominator = group.column == null ? "" : key;
            String cls = group == GroupBy.CAUSE ? list.get(0).rootCause().label() : null;
            rows.add(FailureRow.of(key, cls, list, hours.getOrDefault(denominator, BigDecimal.ZERO),
                    starts.getOrDefault(denominator, 0L)));
        });
        return rows;
    }
}
