package io.gpumeter.ledger.dra.domain;

import io.gpumeter.common.fact.ClaimConsumer;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.ledger.allocation.domain.AllocationUnit;
import io.gpumeter.ledger.allocation.domain.PodUnit;
import io.gpumeter.ledger.allocation.domain.Sharing;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.history.domain.ResourceVersions;
import io.gpumeter.ledger.violation.domain.Violation;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What each pod holds through ResourceClaims. A pod holds a claim's allocated devices from its start (it is
 * scheduled only once the claim is allocated and reserved for it) until its own end: the claim's deletion changes
 * nothing while it is reserved, as Kubernetes keeps a reserved claim. When the claim was ever seen reserved, only
 * the pods it was reserved for hold it; a claim shared by several pods is divided among those holding it at each
 * instant (see {@link Sharing}). What a pod asks for is its claims' requests, whole: sharing shows as allocated
 * below requested.
 * <p>
 * Kubernetes reserves a claim only for pods of the claim's own namespace, and admits admin access only in a
 * namespace labelled {@value NamespaceTimeline#ADMIN_ACCESS_LABEL}=true. So a pod of another namespace named in
 * {@code status.reservedFor} holds nothing of the claim (a forged or corrupt entry, found as
 * {@link Violation.Kind#DRA_CONSUMER_OTHER_NAMESPACE}), and an admin-access device bills nothing only while its
 * namespace carried the label: elsewhere it is held as an ordinary device, its source marked
 * {@value #ADMIN_ACCESS_UNLABELLED} (found as {@link Violation.Kind#DRA_ADMIN_ACCESS_UNLABELLED}).
 */
public final class ClaimHoldings {

    /** Marks the source of an admin-access device held as an ordinary one, its namespace lacking the label. */
    public static final String ADMIN_ACCESS_UNLABELLED = "+admin-access-unlabelled";

    /** resourceVersions are etcd revisions in practice; when one is not numeric, observation time orders. */
    static final Comparator<ResourceClaimFact> VERSION_ORDER = (a, b) -> {
        Long ra = ResourceVersions.revision(a.resourceVersion());
        Long rb = ResourceVersions.revision(b.resourceVersion());
        return ra != null && rb != null ? Long.compare(ra, rb) : a.observedAt().compareTo(b.observedAt());
    };

    /**
     * One pod's units from claims, what its claims ask for in card-equivalents, and what its derivation found
     * amiss in them.
     */
    public record PodClaims(List<PodUnit> held, BigDecimal requested, Set<Violation.Kind> findings) {
        public static final PodClaims NONE = new PodClaims(List.of(), BigDecimal.ZERO, Set.of());
    }

    private final DraPlanner planner;

    public ClaimHoldings(DraPlanner planner) {
        this.planner = planner;
    }

    /**
     * @param histories     every pod bound to these claims, by uid
     * @param claimsByPod   pod uid to the keys ("namespace/name") of the claims bound to it
     * @param claimVersions claim key to every stored version of claims of that name
     * @param namespaces    a namespace's labels over time, by its name
     */
    public Map<String, PodClaims> derive(Map<String, PodHistory> histories, Map<String, Set<String>> claimsByPod,
                                         Map<String, List<ResourceClaimFact>> claimVersions, DraDevices devices,
                                         Function<String, NamespaceTimeline> namespaces) {
        Map<String, List<PodUnit>> held = new HashMap<>();
        Map<String, BigDecimal> requested = new HashMap<>();
        Map<String, Set<Violation.Kind>> findings = new HashMap<>();
        Map<String, Set<String>> podsByClaim = new HashMap<>();
        claimsByPod.forEach((pod, claims) -> claims.forEach(k -> podsByClaim.computeIfAbsent(k, x -> new TreeSet<>()).add(pod)));
        podsByClaim.forEach((key, pods) -> {
            List<ResourceClaimFact> versions = claimVersions.getOrDefault(key, List.of());
            if (versions.isEmpty()) {
                return;
            }
            String namespace = versions.get(0).namespace();
            NamespaceTimeline timeline = namespaces.apply(namespace);
            Map<String, List<String>> podsByUid = new HashMap<>();
            for (String pod : pods) {
                podsByUid.computeIfAbsent(claimUidOf(pod, versions), x -> new ArrayList<>()).add(pod);
            }
            podsByUid.forEach((uid, candidates) -> {
                List<ResourceClaimFact> own = versions.stream().filter(v -> uid.equals(v.uid())).sorted(VERSION_ORDER).toList();
                Set<String> reservedFor = own.stream().flatMap(v -> v.reservedFor().stream())
                        .filter(ClaimConsumer::isPod).map(ClaimConsumer::uid).collect(Collectors.toSet());
                List<String> known = candidates.stream().filter(histories::containsKey).toList();
                // Only a claim's reservation links a pod of another namespace to it, and Kubernetes never makes one.
                known.stream().filter(p -> !namespace.equals(histories.get(p).latest().namespace())).forEach(p ->
                        findings.computeIfAbsent(p, x -> EnumSet.noneOf(Violation.Kind.class))
                                .add(Violation.Kind.DRA_CONSUMER_OTHER_NAMESPACE));
                List<String> holders = known.stream()
                        .filter(p -> namespace.equals(histories.get(p).latest().namespace()))
                        .filter(p -> reservedFor.isEmpty() || reservedFor.contains(p))
                        .filter(p -> histories.get(p).start().isPresent()).toList();
                if (holders.isEmpty()) {
                    return;
                }
                Optional<ResourceClaimFact> allocation = own.stream().filter(ResourceClaimFact::allocated)
                        .reduce((a, b) -> b);
                ResourceClaimFact shape = allocation.orElse(own.get(own.size() - 1));
                Sharing sharing = new Sharing(holders.stream().map(p -> holding(histories.get(p))).toList());
                Sharing admitted = sharing.freeWhere(timeline::adminAccessAt, timeline.adminAccessChanges());
                List<AllocationUnit> units = allocation.map(a -> planner.plan(a, devices)).orElse(List.of());
                List<AllocationUnit> adminUnits = allocation.map(a -> planner.planAdminAccess(a, devices)).orElse(List.of());
                for (String pod : holders) {
                    List<PodUnit> its = held.computeIfAbsent(pod, x -> new ArrayList<>());
                    units.forEach(u -> its.add(new PodUnit(holders.size() > 1 ? shared(u) : u, sharing)));
                    adminUnits.forEach(u -> its.add(new PodUnit(unlabelled(holders.size() > 1 ? shared(u) : u), admitted)));
                    PodHistory history = histories.get(pod);
                    if (!adminUnits.isEmpty() && billedWhileHeld(holding(history), timeline)) {
                        findings.computeIfAbsent(pod, x -> EnumSet.noneOf(Violation.Kind.class))
                                .add(Violation.Kind.DRA_ADMIN_ACCESS_UNLABELLED);
                    }
                    // a pod's request is attributed as of when it asked, so is the namespace's admission of it
                    requested.merge(pod, planner.requested(shape, devices, timeline.adminAccessAt(askedAt(history))),
                            BigDecimal::add);
                }
            });
        });
        Map<String, PodClaims> out = new HashMap<>();
        histories.keySet().forEach(pod -> out.put(pod, new PodClaims(held.getOrDefault(pod, List.of()),
                requested.getOrDefault(pod, BigDecimal.ZERO).stripTrailingZeros(),
                findings.getOrDefault(pod, Set.of()))));
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

    /** Whether the namespace lacked the admin-access label at some instant of the holding. */
    private static boolean billedWhileHeld(Sharing.Holding holding, NamespaceTimeline namespace) {
        if (!namespace.adminAccessAt(holding.start())) {
            return true;
        }
        for (Instant change : namespace.adminAccessChanges().tailSet(holding.start(), false)) {
            if (holding.end() != null && !change.isBefore(holding.end())) {
                return false;
            }
            if (!namespace.adminAccessAt(change)) {
                return true;
            }
        }
        return false;
    }

    /** When the pod asked, as its request row counts it: its creation, else its first sighting. */
    private static Instant askedAt(PodHistory history) {
        return history.earliest(PodFact::createdAt).orElseGet(() -> history.earliest(PodFact::observedAt).orElseThrow());
    }

    private static AllocationUnit unlabelled(AllocationUnit u) {
        return new AllocationUnit(u.kind(), u.gpuUuid(), u.gpuModel(), u.migProfile(), u.cores(), u.memoryMib(),
                u.fraction(), u.source() + ADMIN_ACCESS_UNLABELLED, u.migInstance());
    }

    private static AllocationUnit shared(AllocationUnit u) {
        return new AllocationUnit(u.kind(), u.gpuUuid(), u.gpuModel(), u.migProfile(), u.cores(), u.memoryMib(),
                u.fraction(), u.source() + "+shared", u.migInstance());
    }
}
