package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.RegisteredGpu;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.dra.domain.DraCards;
import io.gpumeter.ledger.fragmentation.domain.HeldUnit;
import io.gpumeter.ledger.fragmentation.domain.ProbeCard;
import io.gpumeter.ledger.inventory.domain.MigProfile;
import io.gpumeter.ledger.inventory.domain.NodeInventory;
import io.gpumeter.ledger.inventory.domain.NodePools;
import io.gpumeter.ledger.repository.FragmentationRepository.NodeAt;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The cards the fragmentation probe measures, node by node: those HAMi registered (with its memory, cores and
 * slots), those NVIDIA's DRA driver publishes in the node's ResourceSlices (with the slice's memory, a MIG card when
 * it publishes MIG devices), and for a node neither names, as many stand-ins as GPU feature discovery counts. A card
 * is a MIG card when its node runs a MIG strategy, its slice publishes MIG devices, or a MIG unit names it.
 */
final class ProbeCards {

    private static final String GPU_COUNT = "nvidia.com/gpu.count";
    private static final int DEFAULT_CORES = 100;

    private final NormalizationPolicy policy;
    private final NodePools pools;
    /** Whether a card of no known memory is kept (at 0 MiB) rather than left out as the probe's figures need. */
    private final boolean keepUnmeasured;

    ProbeCards(NormalizationPolicy policy, NodePools pools) {
        this(policy, pools, false);
    }

    private ProbeCards(NormalizationPolicy policy, NodePools pools, boolean keepUnmeasured) {
        this.policy = policy;
        this.pools = pools;
        this.keepUnmeasured = keepUnmeasured;
    }

    /** Every card, those of no known memory too: a card is a card in the fleet's layout whatever its memory. */
    static ProbeCards keepingUnmeasured(NormalizationPolicy policy, NodePools pools) {
        return new ProbeCards(policy, pools, true);
    }

    /** @param slices the current slices of NVIDIA's DRA driver by cluster */
    List<ProbeCard> of(List<NodeAt> nodes, List<HeldUnit> units, Map<String, List<ResourceSliceFact>> slices) {
        Set<String> migNamed = units.stream().filter(u -> u.kind() == UnitKind.MIG && u.gpuUuid() != null)
                .map(u -> u.cluster() + "/" + u.gpuUuid()).collect(Collectors.toSet());
        Map<String, Map<String, List<DraCards.Card>>> published = slices.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> DraCards.byNode(e.getValue())));
        List<ProbeCard> cards = new ArrayList<>();
        for (NodeAt at : nodes) {
            NodeInventory node = new NodeInventory(at.node().name(), at.node().labels(), at.node().gpus());
            String strategy = node.labels().getOrDefault(NodeInventory.MIG_STRATEGY, "");
            boolean migNode = "single".equalsIgnoreCase(strategy) || "mixed".equalsIgnoreCase(strategy);
            Optional<MigProfile> fixed = node.singleStrategyProfile();
            List<DraCards.Card> dra = published.getOrDefault(at.cluster(), Map.of()).getOrDefault(node.name(), List.of());
            String pool = pools.of(node, dra.stream().map(DraCards.Card::model).filter(m -> m != null && !m.isBlank())
                    .findFirst().orElse(null));
            List<RegisteredGpu> gpus = node.gpus().stream().filter(g -> g.uuid() != null && !g.uuid().isBlank()).toList();
            Set<String> registered = new HashSet<>();
            for (RegisteredGpu g : gpus) {
                registered.add(g.uuid());
                String model = g.model() == null || g.model().isBlank() ? node.model() : g.model();
                boolean mig = migNode || migNamed.contains(at.cluster() + "/" + g.uuid());
                Long memory = g.memoryMib() > 0 ? Long.valueOf(g.memoryMib()) : node.cardMemoryMib(g.uuid());
                add(cards, at, node, pool, g.uuid(), model, memory, g.cores(), g.splitCount(), mig,
                        mig ? fixed.orElse(null) : null, ProbeCard.Origin.REGISTERED);
            }
            for (DraCards.Card c : dra) {
                if (registered.add(c.uuid())) {
                    boolean mig = c.mig() || migNamed.contains(at.cluster() + "/" + c.uuid());
                    add(cards, at, node, pool, c.uuid(), c.model(), c.memoryMib(), 0, 0, mig, null,
                            ProbeCard.Origin.PUBLISHED);
                }
            }
            if (registered.isEmpty()) {
                for (RegisteredGpu g : standIns(node)) {
                    boolean mig = migNode || migNamed.contains(at.cluster() + "/" + g.uuid());
                    add(cards, at, node, pool, g.uuid(), node.model(), g.memoryMib() > 0 ? g.memoryMib() : null, 0, 0,
                            mig, mig ? fixed.orElse(null) : null, ProbeCard.Origin.COUNTED);
                }
            }
        }
        return cards;
    }

    private void add(List<ProbeCard> cards, NodeAt at, NodeInventory node, String pool, String uuid, String model,
                     Long memoryMib, int cores, int splitCount, boolean mig, MigProfile fixed, ProbeCard.Origin origin) {
        Long memory = memoryMib != null && memoryMib > 0 ? memoryMib : policy.defaultCardMemoryMib();
        if (memory == null && !mig && !keepUnmeasured) {
            return;
        }
        ProbeCard.MigLayout layout = mig ? new ProbeCard.MigLayout(policy.migSlicesOf(model), fixed) : null;
        cards.add(new ProbeCard(at.cluster(), node.name(), pool, uuid, memory == null ? 0 : memory,
                cores > 0 ? cores : DEFAULT_CORES, Math.max(0, splitCount), node.replicas(), layout, model, origin));
    }

    /** Cards a node counts (nvidia.com/gpu.count) but no registration names; a unit held there names none of them. */
    private static List<RegisteredGpu> standIns(NodeInventory node) {
        long count;
        try {
            count = Long.parseLong(node.labels().getOrDefault(GPU_COUNT, "0").trim());
        } catch (NumberFormatException e) {
            count = 0;
        }
        List<RegisteredGpu> out = new ArrayList<>();
        Long memory = node.cardMemoryMib(null);
        for (int i = 0; i < count; i++) {
            out.add(new RegisteredGpu(node.name() + "#" + i, node.model(), memory == null ? 0 : memory, 0, 0, null, null));
        }
        return out;
    }
}
