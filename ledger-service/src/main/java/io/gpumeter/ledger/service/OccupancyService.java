package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.occupancy.domain.CardHoldings;
import io.gpumeter.ledger.occupancy.domain.Occupant;
import io.gpumeter.ledger.occupancy.domain.PodHoldings;
import io.gpumeter.ledger.repository.AllocationRepository;
import io.gpumeter.ledger.repository.HoldingsRepository;
import io.gpumeter.ledger.repository.InventoryRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Q1: who holds which GPU, now or at any past instant. */
@ApplicationScoped
public class OccupancyService {

    private final AllocationRepository allocations;
    private final HoldingsRepository holdings;
    private final InventoryRepository inventory;

    public OccupancyService(AllocationRepository allocations, HoldingsRepository holdings, InventoryRepository inventory) {
        this.allocations = allocations;
        this.holdings = holdings;
        this.inventory = inventory;
    }

    /** {@code tenant}, when given, keeps that tenant's occupants only. */
    public Uni<List<Occupant>> ofGpu(String uuid, Instant at, String tenant) {
        return allocations.occupantsOfGpu(uuid, at, tenant).chain(occupants -> {
            if (!occupants.isEmpty()) {
                return Uni.createFrom().item(occupants);
            }
            // An empty answer is only true for a card the ledger knows; an unknown UUID is a 404.
            return inventory.known(uuid)
                    .chain(known -> known ? Uni.createFrom().item(true) : allocations.everAllocated(uuid))
                    .map(known -> {
                        if (!known) {
                            throw ApiProblem.notFound("uuid", "no GPU with UUID '" + uuid + "' is in the inventory or the ledger");
                        }
                        return occupants;
                    });
        });
    }

    public Uni<List<Occupant>> ofNode(String cluster, String node, Instant at, String tenant) {
        return allocations.occupantsOfNode(cluster, node, at, tenant).chain(occupants -> {
            if (!occupants.isEmpty()) {
                return Uni.createFrom().item(occupants);
            }
            return allocations.nodeKnown(cluster, node).map(known -> {
                if (!known) {
                    throw ApiProblem.notFound("node", "no node named '" + node + "' is in the ledger");
                }
                return occupants;
            });
        });
    }

    /** What one pod held at an instant: empty when it held nothing then (or never existed; no pod is a 404 here). */
    public Uni<List<Occupant>> ofPod(String cluster, String namespace, String pod, Instant at, String tenant) {
        return allocations.occupantsOfPod(cluster, namespace, pod, at, tenant);
    }

    /** Every unit held at an instant, optionally on one node, in one namespace or cluster: the fleet in one read. */
    public Uni<List<Occupant>> at(Instant at, String cluster, String node, String namespace, String tenant) {
        return allocations.occupantsAt(at, cluster, node, namespace, tenant);
    }

    /**
     * What each pod ("namespace/pod", each once, in the order given) held during the window, each unit with the part
     * of the window it was held; a pod that held nothing has no units.
     */
    public Uni<List<PodHoldings>> holdings(TimeWindow window, String cluster, List<String> podKeys) {
        List<String> namespaces = new ArrayList<>();
        List<String> pods = new ArrayList<>();
        for (String key : podKeys) {
            int slash = key.indexOf('/');
            namespaces.add(key.substring(0, slash));
            pods.add(key.substring(slash + 1));
        }
        return holdings.holdings(window, cluster, namespaces, pods).map(held -> {
            List<PodHoldings> out = new ArrayList<>();
            for (int i = 0; i < podKeys.size(); i++) {
                out.add(new PodHoldings(namespaces.get(i), pods.get(i), held.getOrDefault(podKeys.get(i), List.of())));
            }
            return out;
        });
    }

    /** What was held on each card (in the order given) during the window; a card nobody held has no units. */
    public Uni<List<CardHoldings>> holdingsOfCards(TimeWindow window, String cluster, List<String> gpuUuids) {
        return holdings.holdingsOfCards(window, cluster, gpuUuids).map(held -> gpuUuids.stream()
                .map(g -> new CardHoldings(g, held.getOrDefault(g, List.of()))).toList());
    }
}
