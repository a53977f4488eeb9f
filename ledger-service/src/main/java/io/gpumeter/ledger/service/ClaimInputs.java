package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.ledger.dra.domain.ClaimHoldings;
import io.gpumeter.ledger.dra.domain.DraDevices;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.repository.ClaimLinkRepository;
import io.gpumeter.ledger.repository.DraFactRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads what the ResourceClaims of a set of pods need for derivation: the pods sharing their claims (which are
 * derived with them), the claims' versions and the slices describing their allocated devices. What a derivation
 * finds amiss in the claims is counted on {@code gpumeter_ledger_findings_total{kind}}, once per pod derived.
 */
@ApplicationScoped
public class ClaimInputs {

    private final DraFactRepository dra;
    private final ClaimLinkRepository links;
    private final ClaimHoldings holdings;
    private final MeterRegistry registry;

    public ClaimInputs(DraFactRepository dra, ClaimLinkRepository links, ClaimHoldings holdings, MeterRegistry registry) {
        this.dra = dra;
        this.links = links;
        this.holdings = holdings;
        this.registry = registry;
    }

    /** The claims around a set of pods, ready to say what each pod holds. */
    public record Claims(Set<String> pods, Map<String, Set<String>> claimsByPod,
                         Map<String, List<ResourceClaimFact>> versions, DraDevices devices, ClaimHoldings holdings,
                         MeterRegistry registry) {

        /**
         * What every pod of these histories holds through claims, given the labels of the claims' namespaces over
         * time (which say where admin access bills nothing).
         */
        public Map<String, ClaimHoldings.PodClaims> holdings(Map<String, PodHistory> histories,
                                                             Function<String, NamespaceTimeline> namespaces) {
            if (claimsByPod.isEmpty()) {
                return Map.of();
            }
            Map<String, ClaimHoldings.PodClaims> held = holdings.derive(histories, claimsByPod, versions, devices, namespaces);
            held.values().forEach(pod -> pod.findings().forEach(kind ->
                    registry.counter("gpumeter_ledger_findings", "kind", kind.name()).increment()));
            return held;
        }
    }

    public Uni<Claims> load(SqlConnection conn, String cluster, Collection<String> podUids) {
        return links.sharingLinks(conn, cluster, podUids).chain(found -> {
            Set<String> pods = new TreeSet<>(podUids);
            Map<String, Set<String>> claimsByPod = new HashMap<>();
            found.forEach(l -> {
                pods.add(l.podUid());
                claimsByPod.computeIfAbsent(l.podUid(), x -> new TreeSet<>()).add(l.namespace() + "/" + l.claimName());
            });
            if (found.isEmpty()) {
                return Uni.createFrom().item(new Claims(pods, Map.of(), Map.of(), DraDevices.none(), holdings, registry));
            }
            Set<String> keys = found.stream().map(l -> l.namespace() + "/" + l.claimName()).collect(Collectors.toSet());
            return dra.claimVersions(conn, cluster, keys).chain(versions -> {
                Set<String> pools = versions.stream().flatMap(v -> v.results().stream())
                        .map(r -> r.driver() + "/" + r.pool()).collect(Collectors.toSet());
                Map<String, List<ResourceClaimFact>> byKey = versions.stream()
                        .collect(Collectors.groupingBy(v -> v.namespace() + "/" + v.name()));
                return dra.latestSlices(conn, cluster, pools).map(slices ->
                        new Claims(pods, claimsByPod, byKey, new DraDevices(slices), holdings, registry));
            });
        });
    }
}
