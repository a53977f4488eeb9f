package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.domain.PodMinute;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.domain.SloSelector;
import io.gpumeter.slo.domain.TenantCoverage;
import io.gpumeter.slo.repository.LatencyRepository;
import io.gpumeter.slo.repository.LatencyRepository.PodHour;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the pod-minutes an SLO's selector picks from the stored latency minutes: every pod of a service in its
 * namespace, or the pods the ledger attributed to a tenant in each hour (one service and/or namespace of it if named).
 * Never the pods of a service's name in another namespace: those are another tenant's service.
 */
@ApplicationScoped
public class SloEvents {

    /** Unknown pods listed by name in a coverage; the count covers the rest. */
    static final int LISTED_UNKNOWN_PODS = 20;

    /**
     * The selected pod-minutes, and for a tenant selector how the candidates were attributed (else null).
     *
     * @param slo the SLO as read: a legacy service selector pinned to the namespace that reported its service
     */
    public record Selected(List<PodMinute> pods, TenantCoverage coverage, SloDefinition slo) {
    }

    private final LatencyRepository latency;
    private final PodTenants tenants;

    private final Clock clock;

    public SloEvents(LatencyRepository latency, PodTenants tenants, Clock clock) {
        this.clock = clock;
        this.latency = latency;
        this.tenants = tenants;
    }

    /**
     * The SLO's pod-minutes starting in the window.
     *
     * @throws io.gpumeter.common.problem.ApiProblem 400 naming {@code selector.namespace} for a legacy service
     *                                               selector whose service several namespaces report in the window
     */
    public Uni<Selected> podMinutes(SloDefinition slo, TimeWindow window) {
        SloSelector selector = slo.selector();
        if (selector.unpinned()) {
            return latency.namespacesOf(selector.service(), window).chain(found -> {
                if (found.size() > 1) {
                    throw ServiceNamespaces.ambiguous("selector.namespace", "SLO '" + slo.name() + "' selects service '"
                            + selector.service() + "' without a namespace (stored before services belonged to a"
                            + " namespace); its name", found, " in the minutes read, " + window.start() + " to "
                            + window.end());
                }
                return found.isEmpty() ? Uni.createFrom().item(new Selected(List.of(), null, slo))
                        : podMinutes(slo.with(selector.in(found.get(0))), window);
            });
        }
        if (!selector.byTenant()) {
            return latency.podMinutes(slo.sli(), selector.service(), selector.namespace(), null, window)
                    .map(pods -> new Selected(pods, null, slo));
        }
        return latency.podHours(selector.service(), selector.namespace(), window)
                .chain(hours -> tenants.resolve(hours, clock.instant()).chain(answers -> {
                    Set<String> chosenHours = new HashSet<>();
                    Set<String> chosenPods = new TreeSet<>();
                    TenantCoverage coverage = cover(window, selector.tenant(), hours, answers, chosenHours, chosenPods);
                    return latency.podMinutes(slo.sli(), selector.service(), selector.namespace(), chosenPods, window)
                            .map(pods -> new Selected(pods.stream().filter(p -> chosenHours.contains(
                                    hourKey(p.podKey(), p.minute().truncatedTo(ChronoUnit.HOURS)))).toList(),
                                    coverage, slo));
                }));
    }

    /** Sorts the pod-hours into the tenant's (collected into the two sets) and the rest, counting each kind. */
    private static TenantCoverage cover(TimeWindow window, String tenant, List<PodHour> hours,
                                        Map<PodHour, PodTenants.Answer> answers, Set<String> chosenHours,
                                        Set<String> chosenPods) {
        long all = 0;
        long mine = 0;
        long other = 0;
        long unknown = 0;
        long unresolved = 0;
        Set<String> unknownPods = new TreeSet<>();
        for (PodHour h : hours) {
            PodTenants.Answer a = answers.get(h);
            all += h.minutes();
            if (a.is(tenant)) {
                mine += h.minutes();
                chosenHours.add(hourKey(h.podKey(), h.hour()));
                chosenPods.add(h.podKey());
            } else if (a.kind() == PodTenants.Kind.UNKNOWN) {
                unknown += h.minutes();
                unknownPods.add(h.podKey());
            } else if (a.kind() == PodTenants.Kind.FAILED) {
                unresolved += h.minutes();
            } else {
                other += h.minutes();
            }
        }
        List<String> listed = unknownPods.stream().limit(LISTED_UNKNOWN_PODS).toList();
        return new TenantCoverage(window.start(), window.end(), all, mine, other, unknown, unresolved, listed);
    }

    private static String hourKey(String podKey, Instant hour) {
        return podKey + "@" + hour;
    }
}
