package io.gpumeter.ledger.domain;

import io.gpumeter.common.fact.ClaimConsumer;
import io.gpumeter.common.fact.ResourceClaimFact;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What each pod holds through ResourceClaims. A pod holds a claim's allocated devices from its start (it is
 * scheduled only once the claim is allocated and reserved for it) until its own end: the claim's deletion changes
 * nothing while it is reserved, as Kubernetes keeps a reserved claim. When the claim was ever seen reserved, only
 * the pods it was reserved for hold it; a claim shared by several pods is divided among those holding it at each
 * instant (see {@link Sharing}). What a pod asks for is its claims' requests, whole: sharing shows as allocated
 * below requested.
 */
public final class ClaimHoldings {

    /** resourceVersions are etcd revisions in practice; when one is not numeric, observation time orders. */
    static final Comparator<ResourceClaimFact> VERSION_ORDER = (a, b) -> {
        Long ra = ResourceVersions.revision(a.resourceVersion());
        Long rb = ResourceVersions.revision(b.resourceVersion());
        return ra != null && rb != null ? Long.compare(ra, rb) : a.observedAt().compareTo(b.observedAt());
    };

    /** One pod's units from claims, and what its claims ask for in card-equivalents. */
    public record PodClaims(List<PodUnit> held, BigDecimal requested) {
        public static final PodClaims NONE = new PodClaims(List.of(), BigDecimal.ZERO);
    }

    private final DraPlanner planner;

    public ClaimHoldings(DraPlanner planner) {
        this.planner = planner;
    }

    /**
     * @param histories     every pod bound to these claims, by uid
     * @param claimsByPod   pod uid to the keys ("namespace/name") of the claims bound to it
     * @param claimVersions claim key to every stored version of claims of that name
     */
    public Map<String, PodClaims> derive(Map<String, PodHistory> histories, Map<String, Set<String>> claimsByPod,
                                         Map<String, List<ResourceClaimFact>> claimVersions, DraDevices devices) {
        Map<String, List<PodUnit>> held = new HashMap<>();
        Map<String, BigDecimal> requested = new HashMap<>();
        Map<String, Set<String>> podsByClaim = new HashMap<>();
        claimsByPod.forEach((pod, claims) -> claims.forEach(k -> podsByClaim.computeIfAbsent(k, x -> new TreeSet<>()).add(pod)));
        podsByClaim.forEach((key, pods) -> {
            List<ResourceClaimFact> versions = claimVersions.getOrDefault(key, List.of());
            if (versions.isEmpty()) {
                return;
            }
            Map<String, List<String>> podsByUid = new HashMap<>();
            for (String pod : pods) {
                podsByUid.computeIfAbsent(claimUidOf(pod, versions), x -> new ArrayList<>()).add(pod);
            }
            podsByUid.forEach((uid, candidates) -> {
                List<ResourceClaimFact> own = versions.stream().filter(v -> uid.equals(v.uid())).sorted(VERSION_ORDER).toList();
                Set<String> reservedFor = own.stream().flatMap(v -> v.reservedFor().stream())
                        .filter(ClaimConsumer::isPod).map(ClaimConsumer::uid).collect(Collectors.toSet());
                List<String> holders = candidates.stream().filter(histories::containsKey)
                        .filter(p -> reservedFor.isEmpty() || reservedFor.contains(p))
                        .filter(p -> histories.get(p).start().isPresent()).toList();
                if (holders.isEmpty()) {
                    return;
                }
                Optional<ResourceClaimFact> allocation = own.stream().filter(ResourceClaimFact::allocated)
                        .reduce((a, b) -> b);
                ResourceClaimFact shape = allocation.orElse(own.get(own.size() - 1));
                Sharing sharing = new Sharing(holders.stream().map(p -> holding(histories.get(p))).toList());
                List<AllocationUnit> units = allocation.map(a -> planner.plan(a, devices)).orElse(List.of());
                BigDecimal asked = planner.requested(shape, devices);
                for (String pod : holders) {
                    units.forEach(u -> held.computeIfAbsent(pod, x -> new ArrayList<>()).add(new PodUnit(
                            holders.size() > 1 ? shared(u) : u, sharing)));
                    requested.merge(pod, asked, BigDecimal::add);
                }
            });
        });
        Map<String, PodClaims> out = new HashMap<>();
        histories.keySet().forEach(pod -> out.put(pod, new PodClaims(held.getOrDefault(pod, List.of()),
                requested.getOrDefault(pod, BigDecimal.ZERO).stripTrailingZeros())));
        return out;
    }

    /** The claim of this name the pod used: the one reserved for it, else the newest of the name. */
    private static String claimUidOf(String pod, List<ResourceClaimFact> versions) {
        return versions.stream()
                .filter(v -> v.reservedFor().stream().anyMatch(c -> c.isPod() && pod.equals(c.uid())))
                .max(VERSION_ORDER)
                .or(() -> versions.stream().max(VERSION_ORDER))
                .map(ResourceClaimFact::uid).orElseThrow();
    }

    private static Sharing.Holding holding(PodHistory history) {
        Instant start = history.start().orElseThrow();
        Instant end = history.end().map(e -> e.isBefore(start) ? start : e).orElse(null);
        return new Sharing.Holding(start, end);
    }

    private static AllocationUnit shared(AllocationUnit u) {
        return new AllocationUnit(u.kind(), u.gpuUuid(), u.gpuModel(), u.migProfile(), u.cores(), u.memoryMib(),
                u.fraction(), u.source() + "+shared", u.migInstance());
    }
}
