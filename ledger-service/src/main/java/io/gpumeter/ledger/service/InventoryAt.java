package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.ledger.inventory.domain.InventoryStart;
import io.gpumeter.ledger.repository.FragmentationRepository.FirstSighting;
import io.gpumeter.ledger.repository.FragmentationRepository.FirstSlice;
import io.gpumeter.ledger.repository.FragmentationRepository.NodeAt;
import io.gpumeter.ledger.repository.FragmentationRepository;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nodes and the ResourceSlices of NVIDIA's DRA driver in the inventory at an instant, by {@link InventoryStart}:
 * each node's newest version by then; a node first seen after the instant but created before it, as its first
 * sighting shows it (the registrations that came with it included); and a slice first seen after the instant, as
 * first seen, when it came with its node's first sighting and the node is there.
 */
final class InventoryAt {

    /** The nodes and, by cluster, the slices. */
    record Nodes(List<NodeAt> nodes, Map<String, List<ResourceSliceFact>> slices) {
    }

    private InventoryAt() {
    }

    /** @param firsts every node's first sighting (read once for a series of instants) */
    static Uni<Nodes> read(FragmentationRepository repository, Instant at, String cluster, Uni<List<FirstSighting>> firsts) {
        return repository.nodes(at, cluster).chain(nodes -> repository.draSlices(at, cluster)
                .chain(slices -> firsts.chain(first -> repository.slicesFirstSeenAfter(at, cluster)
                        .map(later -> of(at, nodes, slices, first, later)))));
    }

    static Nodes of(Instant at, List<NodeAt> seen, Map<String, List<ResourceSliceFact>> seenSlices,
                    List<FirstSighting> firsts, List<FirstSlice> later) {
        List<NodeAt> nodes = new ArrayList<>(seen);
        Set<String> there = new HashSet<>();
        seen.forEach(n -> there.add(n.cluster() + "/" + n.node().name()));
        Map<String, FirstSighting> first = new HashMap<>();
        for (FirstSighting f : firsts) {
            String key = f.cluster() + "/" + f.node().name();
            first.put(key, f);
            if (f.observedAt().isAfter(at) && !InventoryStart.node(f.observedAt(), f.created(), null).isAfter(at)) {
                nodes.add(new NodeAt(f.cluster(), f.node()));
                there.add(key);
            }
        }
        Map<String, List<ResourceSliceFact>> slices = new HashMap<>();
        seenSlices.forEach((c, list) -> slices.put(c, new ArrayList<>(list)));
        for (FirstSlice s : later) {
            String key = s.cluster() + "/" + s.slice().nodeName();
            FirstSighting node = first.get(key);
            if (there.contains(key) && node != null
                    && InventoryStart.withFirstSighting(s.slice().observedAt(), node.observedAt())) {
                slices.computeIfAbsent(s.cluster(), c -> new ArrayList<>()).add(s.slice());
            }
        }
        return new Nodes(nodes, slices);
    }
}
