package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.ledger.hami.domain.HamiGrants;
import io.gpumeter.ledger.hami.domain.HamiResources;
import io.gpumeter.ledger.inventory.domain.MigProfile;
import io.gpumeter.ledger.inventory.domain.NodeInventory;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Turns what a pod was granted (HAMi devices, MIG resources, plain GPUs) into normalized units. */
public final class UnitPlanner {

    public static final String DEFAULT_SLICES = "+default-slices";

    private final NormalizationPolicy policy;
    private final HamiResources hami;

    public UnitPlanner(NormalizationPolicy policy) {
        this(policy, HamiResources.DEFAULTS);
    }

    public UnitPlanner(NormalizationPolicy policy, HamiResources hami) {
        this.policy = policy;
        this.hami = hami;
    }

    /**
     * The units of what the pod asks for, its HAMi grants taken as they are written: for requests and claims, where
     * the pod's own books are all a grant can move.
     *
     * @param node the inventory of the node the pod runs on, or an empty inventory when unknown
     */
    public List<AllocationUnit> plan(PodFact pod, NodeInventory node) {
        return plan(pod, node, pod.vgpus());
    }

    /**
     * The units a pod holds: the HAMi grants found to be held ({@link HamiGrants}), else what its resources ask for
     * — a share on a card not named yet while HAMi's grant is refused or waits for its node.
     */
    public List<AllocationUnit> plan(PodFact pod, NodeInventory node, List<VgpuGrant> held) {
        if (!held.isEmpty()) {
            return held.stream().map(g -> vgpu(g, node)).toList();
        }
        List<AllocationUnit> units = new ArrayList<>();
        Map<String, Long> resources = new TreeMap<>(pod.gpuResources());
        resources.forEach((resource, count) -> {
            if (count == null || count <= 0) {
                return;
            }
            if (hami.count().equals(resource)) {
                units.addAll(plainGpus(count, pod.gpuResources(), node));
            } else {
                MigProfile.fromResourceName(resource).ifPresent(profile -> {
                    for (long i = 0; i < count; i++) {
                        units.add(mig(profile, node, "mig-resource"));
                    }
                });
            }
        });
        return units;
    }

    /**
     * A MIG unit; on a card whose slice count is not known (no node yet, or a model without its own count) the
     * policy's default applies, and the source says so ({@code +default-slices}) until a re-derivation knows better.
     */
    private AllocationUnit mig(MigProfile profile, NodeInventory node, String source) {
        String basis = policy.knowsMigSlices(node.model()) ? source : source + DEFAULT_SLICES;
        return new AllocationUnit(UnitKind.MIG, null, node.model(), profile.raw(), null, null,
                policy.mig(profile, node.model()), basis);
    }

    private AllocationUnit vgpu(VgpuGrant grant, NodeInventory node) {
        Long card = node.cardMemoryMib(grant.uuid());
        BigDecimal fraction = policy.vgpu(grant.cores(), grant.memoryMib(), card);
        return new AllocationUnit(UnitKind.VGPU, grant.uuid(), node.modelOf(grant.uuid()), null, grant.cores(),
                grant.memoryMib(), fraction, "hami-annotation");
    }

    private List<AllocationUnit> plainGpus(long count, Map<String, Long> resources, NodeInventory node) {
        List<AllocationUnit> units = new ArrayList<>();
        boolean hamiRequest = hami.asksForShare(resources);
        Optional<MigProfile> single = node.singleStrategyProfile();
        for (long i = 0; i < count; i++) {
            if (hamiRequest) {
                // HAMi has not written its placement yet: meter the requested share on an unknown card.
                units.add(requestedVgpu(resources, node));
            } else if (single.isPresent()) {
                units.add(mig(single.get(), node, "device-plugin"));
            } else if (node.replicas() > 1) {
                units.add(new AllocationUnit(UnitKind.SHARED, null, node.model(), null, null, null,
                        policy.timeSliced(node.replicas()), "device-plugin"));
            } else {
                units.add(new AllocationUnit(UnitKind.WHOLE, null, node.model(), null, null, null, policy.whole(),
                        "device-plugin"));
            }
        }
        return units;
    }

    private AllocationUnit requestedVgpu(Map<String, Long> resources, NodeInventory node) {
        Long card = node.cardMemoryMib(null);
        int cores = resources.getOrDefault(hami.cores(), (long) hami.defaultCores()).intValue();
        long memory = resources.getOrDefault(hami.memory(), 0L);
        // HAMi gives the whole card's memory when neither gpumem nor gpumem-percentage is asked for.
        long percentage = resources.getOrDefault(hami.memoryPercentage(), 100L);
        if (memory == 0 && card != null) {
            memory = card * percentage / 100;
        }
        return new AllocationUnit(UnitKind.VGPU, null, node.model(), null, cores, memory,
                policy.vgpu(cores, memory, card), "hami-request");
    }
}
