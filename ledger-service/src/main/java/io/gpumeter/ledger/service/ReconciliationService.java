package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.hours.domain.GpuHours;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.Reconciliation;
import io.gpumeter.ledger.repository.RequestRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Q7 and checklist 7: requested / allocated / used per tenant, team, project or namespace over a window. */
@ApplicationScoped
public class ReconciliationService {

    /** Requests are pod-level: they carry no node, card model or owner. */
    private static final Set<GroupDimension> REQUEST_DIMENSIONS = EnumSet.of(GroupDimension.TENANT, GroupDimension.TEAM,
            GroupDimension.PROJECT, GroupDimension.NAMESPACE, GroupDimension.CLUSTER);

    private final RequestRepository requests;
    private final GpuHoursService hours;
    private final Clock clock;
    private final HamiFindingsService hami;

    public ReconciliationService(RequestRepository requests, GpuHoursService hours, Clock clock,
                                 HamiFindingsService hami) {
        this.hami = hami;
        this.clock = clock;
        this.requests = requests;
        this.hours = hours;
    }

    public Uni<List<Reconciliation>> reconcile(Instant from, Instant to, String groupBy) {
        List<GroupDimension> dims = GpuHoursService.dimensions(groupBy);
        if (!REQUEST_DIMENSIONS.containsAll(dims)) {
            throw ApiProblem.badRequest("groupBy", "reconciliation groups by tenant, team, project, namespace or cluster");
        }
        return hours.allocated(from, to, groupBy, null)
                .chain(granted -> requests.requestedHours(new TimeWindow(from, to), dims, clock.instant())
                        .chain(asked -> hami.unverified(new TimeWindow(from, to), null)
                                .map(unverified -> merge(dims, asked, granted, unverified))));
    }

    private static List<Reconciliation> merge(List<GroupDimension> dims, Map<String, BigDecimal> asked,
                                              List<GpuHours> granted, List<GrantFinding> unverified) {
        Map<String, List<Reconciliation.UnverifiedGrant>> refused = new TreeMap<>();
        unverified.forEach(f -> refused.computeIfAbsent(key(dims, f), k -> new ArrayList<>())
                .add(Reconciliation.UnverifiedGrant.of(f)));
        Map<String, GpuHours> byKey = new TreeMap<>();
        granted.forEach(g -> byKey.put(g.key(), g));
        Map<String, Map<String, String>> groups = new TreeMap<>();
        granted.forEach(g -> groups.put(g.key(), g.group()));
        asked.keySet().forEach(key -> groups.computeIfAbsent(key, k -> group(dims, k)));
        refused.keySet().forEach(key -> groups.computeIfAbsent(key, k -> group(dims, k)));
        return groups.entrySet().stream()
                .map(e -> Reconciliation.of(e.getKey(), e.getValue(), asked.getOrDefault(e.getKey(), BigDecimal.ZERO),
                        byKey.get(e.getKey()), refused.getOrDefault(e.getKey(), List.of())))
                .toList();
    }

    /** The group a finding's pod falls in, keyed as the hours' groups are: the dimensions' values joined by '/'. */
    private static String key(List<GroupDimension> dims, GrantFinding f) {
        List<String> values = new ArrayList<>();
        for (GroupDimension d : dims) {
            String value = switch (d) {
                case TENANT -> f.tenant();
                case TEAM -> f.team();
                case PROJECT -> f.project();
                case NAMESPACE -> f.namespace();
                case CLUSTER -> f.cluster();
                default -> null;
            };
            values.add(value == null ? "unknown" : value);
        }
        return String.join("/", values);
    }

    private static Map<String, String> group(List<GroupDimension> dims, String key) {
        String[] values = key.split("/", dims.size());
        Map<String, String> group = new LinkedHashMap<>();
        for (int i = 0; i < dims.size(); i++) {
            group.put(dims.get(i).label(), i < values.length ? values[i] : "");
        }
        return group;
    }
}
