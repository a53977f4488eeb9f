package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.BookFinding;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.SkippedBook;
import io.gpumeter.ledger.allocation.domain.AllocationDeriver;
import io.gpumeter.ledger.allocation.domain.AllocationSegment;
import io.gpumeter.ledger.allocation.domain.PodRequest;
import io.gpumeter.ledger.allocation.domain.RequestDeriver;
import io.gpumeter.ledger.config.AllocationConfig;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.dra.domain.ClaimHoldings;
import io.gpumeter.ledger.governance.service.SkippedBooks;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.history.domain.GpuBinding;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.history.domain.PodHistory;
import io.gpumeter.ledger.inventory.domain.NodeInventory;
import io.gpumeter.ledger.repository.AllocationRepository;
import io.gpumeter.ledger.repository.BulkRows;
import io.gpumeter.ledger.repository.Chunks;
import io.gpumeter.ledger.repository.FactRepository;
import io.gpumeter.ledger.repository.RequestRepository;
import io.gpumeter.ledger.repository.GpuBindingRepository;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** The one place that rewrites the allocated ledger: re-derives pods from everything the ledger holds on them. */
@ApplicationScoped
public class AllocationBooks {

    private final FactRepository facts;
    private final GpuBindingRepository bindings;
    private final AllocationRepository allocations;
    private final AllocationDeriver deriver;
    private final RequestRepository requests;
    private final RequestDeriver requestDeriver;
    private final LedgerConfig config;
    private final SkippedBooks skipped;
    private final ClaimInputs claimInputs;
    private final GrantFindings grantFindings;

    public AllocationBooks(FactRepository facts, GpuBindingRepository bindings, AllocationRepository allocations,
                           AllocationDeriver deriver, RequestRepository requests, RequestDeriver requestDeriver,
                           LedgerConfig config, SkippedBooks skipped, ClaimInputs claimInputs,
                           GrantFindings grantFindings) {
        this.grantFindings = grantFindings;
        this.skipped = skipped;
        this.claimInputs = claimInputs;
        this.facts = facts;
        this.bindings = bindings;
        this.allocations = allocations;
        this.deriver = deriver;
        this.requests = requests;
        this.requestDeriver = requestDeriver;
        this.config = config;
    }

    /** What a re-derivation could not book: pods whose facts no rule reads, and parts of pods it refused. */
    public record Rederived(List<SkippedBook> skipped, List<BookFinding> findings) {
        static final Rederived NOTHING = new Rederived(List.of(), List.of());

        static Rederived of(List<Rederived> parts) {
            return new Rederived(parts.stream().flatMap(p -> p.skipped().stream()).toList(),
                    parts.stream().flatMap(p -> p.findings().stream()).toList());
        }
    }

    /**
     * Recomputes the segments and requests of these pods, and of every pod sharing a ResourceClaim with them, inside
     * the caller's transaction. A pod whose facts no rule can read keeps the books it had and is returned as skipped;
     * the others are booked as usual, less the HAMi grants that could not be verified, which are returned as findings.
     */
    public Uni<Rederived> rederive(SqlConnection conn, String cluster, Set<String> podUids) {
        return rederive(conn, cluster, podUids, facts.noPodsInHand());
    }

    /**
     * As {@link #rederive(SqlConnection, String, Set)}, where {@code inHand} holds the batch this transaction has
     * stored, which need not be read back.
     */
    public Uni<Rederived> rederive(SqlConnection conn, String cluster, Set<String> touched,
                                   VersionsInHand<PodFact> inHand) {
        if (touched.isEmpty()) {
            return Uni.createFrom().item(Rederived.NOTHING);
        }
        return claimInputs.load(conn, cluster, touched).chain(claims -> {
            // A pod's books depend on its own facts, its namespace, node and bindings — and, for pods sharing a
            // ResourceClaim, on each other's lives: those stay in one slice; the other slices are independent.
            Set<String> sharing = claims.claimsByPod().keySet();
            List<List<String>> slices = new ArrayList<>(Chunks.of(
                    claims.pods().stream().filter(p -> !sharing.contains(p)).toList(), Chunks.OBJECTS));
            if (!sharing.isEmpty()) {
                slices.add(List.copyOf(sharing));
            }
            return Chunks.<String, Rederived>overlapped(slices,
                            slice -> rederiveSlice(conn, cluster, new TreeSet<>(slice), inHand, claims))
                    .map(Rederived::of);
        });
    }

    private Uni<Rederived> rederiveSlice(SqlConnection conn, String cluster, Set<String> podUids,
                                                 VersionsInHand<PodFact> inHand, ClaimInputs.Claims claims) {
        return facts.podVersions(conn, cluster, podUids, inHand).chain(versions -> {
            Map<String, List<PodFact>> byPod = versions.stream().collect(Collectors.groupingBy(PodFact::uid));
            Set<String> namespaces = versions.stream().map(PodFact::namespace).collect(Collectors.toSet());
            Set<String> nodes = versions.stream().map(PodFact::nodeName).filter(n -> n != null).collect(Collectors.toSet());
            return facts.namespaceVersions(conn, cluster, namespaces)
                    .chain(nsFacts -> facts.latestNodes(conn, cluster, nodes)
                            .chain(nodeFacts -> bindings.bindings(conn, cluster, namespaces)
                                    .chain(bindings -> Chunks.offLoop(() -> Rows.of(cluster, derive(cluster, byPod,
                                            timelines(nsFacts), inventories(nodeFacts), bindings, claims))))
                                    .chain(rows -> {
                                        Set<String> derived = new TreeSet<>(podUids);
                                        rows.skipped().forEach(s -> derived.remove(s.uid()));
                                        return allocations.replace(conn, cluster, derived, rows.segments())
                                                .chain(() -> requests.replace(conn, cluster, derived, rows.requests()))
                                                .chain(() -> grantFindings.replace(conn, cluster, derived, rows.refused()))
                                                .map(findings -> new Rederived(
                                                        rows.skipped().stream().map(Skipped::book).toList(), findings));
                                    })));
        });
    }

    /** Both books of a set of pods — what they held, and what they asked for — and the pods left as they were. */
    private record Books(List<AllocationSegment> segments, List<PodRequest> requests, List<Skipped> skipped,
                         List<GrantFinding> refused) {
    }

    private record Skipped(String uid, SkippedBook book) {
    }

    /** Both books as the parameters of their inserts, built with the derivation, off the connection's event loop. */
    private record Rows(BulkRows segments, BulkRows requests, List<Skipped> skipped, List<GrantFinding> refused) {
        static Rows of(String cluster, Books books) {
            return new Rows(AllocationRepository.rows(cluster, books.segments()),
                    RequestRepository.rows(cluster, books.requests()), books.skipped(), books.refused());
        }
    }

    private Books derive(String cluster, Map<String, List<PodFact>> byPod, Map<String, NamespaceTimeline> timelines,
                         Map<String, NodeInventory> nodes, Map<String, List<GpuBinding>> bindings,
                         ClaimInputs.Claims claims) {
        Books books = new Books(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        Map<String, PodHistory> histories = new HashMap<>();
        byPod.forEach((uid, versions) -> histories.put(uid, new PodHistory(versions)));
        Map<String, ClaimHoldings.PodClaims> claimed = claims.holdings(histories,
                ns -> timelines.getOrDefault(ns, NamespaceTimeline.unknown(ns)));
        byPod.forEach((uid, versions) -> {
            PodFact any = versions.get(0);
            List<AllocationSegment> segments = new ArrayList<>();
            List<PodRequest> asked = new ArrayList<>();
            List<GrantFinding> refused = new ArrayList<>();
            skipped.derive("allocation", any.namespace() + "/" + any.name() + " (uid " + uid + ")", () -> {
                PodHistory history = histories.get(uid);
                ClaimHoldings.PodClaims held = claimed.getOrDefault(uid, ClaimHoldings.PodClaims.NONE);
                String node = history.placement().map(PodFact::nodeName).orElse(null);
                NodeInventory found = node == null ? null : nodes.get(node);
                NodeInventory inventory = found != null ? found : new NodeInventory(node, Map.of(), List.of());
                PodFact latest = history.latest();
                NamespaceTimeline namespace = timelines.getOrDefault(latest.namespace(), NamespaceTimeline.unknown(latest.namespace()));
                AllocationDeriver.Derived derived = deriver.derive(cluster, history, inventory, found != null, namespace,
                        bindings.getOrDefault(latest.namespace() + "/" + latest.name(), List.of()), held.held());
                segments.addAll(derived.segments());
                refused.addAll(derived.refusals());
                requestDeriver.derive(cluster, history, inventory, namespace, held.requested()).ifPresent(asked::add);
            }).ifPresentOrElse(book -> books.skipped().add(new Skipped(uid, book)), () -> {
                books.segments().addAll(segments);
                books.requests().addAll(asked);
                books.refused().addAll(refused);
            });
        });
        return books;
    }

    private Map<String, NamespaceTimeline> timelines(List<NamespaceFact> nsFacts) {
        AllocationConfig.Attribution keys = config.attribution();
        Map<String, List<NamespaceFact>> byName = nsFacts.stream().collect(Collectors.groupingBy(NamespaceFact::name));
        Map<String, NamespaceTimeline> timelines = new HashMap<>();
        byName.forEach((name, versions) -> timelines.put(name,
                NamespaceTimeline.of(name, versions, keys.tenantLabel(), keys.teamLabel(), keys.projectLabel())));
        return timelines;
    }

    private static Map<String, NodeInventory> inventories(List<NodeFact> nodeFacts) {
        Map<String, NodeInventory> out = new HashMap<>();
        nodeFacts.forEach(n -> out.put(n.name(), new NodeInventory(n.name(), n.labels(), n.gpus())));
        return out;
    }
}
