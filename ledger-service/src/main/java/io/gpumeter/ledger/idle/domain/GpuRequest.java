package io.gpumeter.ledger.idle.domain;

import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.hami.domain.HamiResources;
import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

/** What a pod asks of the GPUs (its summed GPU resource limits), read to decide whether it would fit a card. */
public record GpuRequest(long gpus, boolean hami, int cores, long memoryMib, int memoryPercentage,
                         Map<String, Long> migInstances) {

    public GpuRequest {
        migInstances = Map.copyOf(migInstances);
    }

    public static GpuRequest of(Map<String, Long> resources) {
        return of(resources, HamiResources.DEFAULTS);
    }

    public static GpuRequest of(Map<String, Long> resources, HamiResources names) {
        Map<String, Long> r = resources == null ? Map.of() : resources;
        Map<String, Long> mig = new TreeMap<>();
        r.forEach((name, count) -> {
            if (count != null && count > 0 && MigProfile.fromResourceName(name).isPresent()) {
                mig.put(name, count);
            }
        });
        return new GpuRequest(Math.max(0, r.getOrDefault(names.count(), 0L)), names.asksForShare(r),
                (int) Math.max(0, r.getOrDefault(names.cores(), (long) names.defaultCores())),
                Math.max(0, r.getOrDefault(names.memory(), 0L)),
                (int) Math.max(0, r.getOrDefault(names.memoryPercentage(), 100L)), mig);
    }

    public boolean asksForGpu() {
        return gpus > 0 || !migInstances.isEmpty();
    }

    /**
     * "Would fit", without node selectors, taints or topology: the request in card-equivalents on this card is no
     * more than its free share; a HAMi request also needs its memory free, and a pod asking for several HAMi vGPUs
     * never fits one card, since HAMi places each on a card of its own.
     *
     * @param freeShare     the card's unallocated share, in card-equivalents
     * @param freeMemoryMib the card's unallocated memory; null when not known, which skips the memory test
     * @param cardMemoryMib the card's memory, for the share of a memory request; null when not known
     */
    public boolean fits(BigDecimal freeShare, Long freeMemoryMib, Long cardMemoryMib, String model, NormalizationPolicy policy) {
        if (!asksForGpu()) {
            return false;
        }
        BigDecimal share = BigDecimal.ZERO;
        for (Map.Entry<String, Long> mig : migInstances.entrySet()) {
            MigProfile profile = MigProfile.fromResourceName(mig.getKey()).orElseThrow();
            share = share.add(policy.mig(profile, model).multiply(BigDecimal.valueOf(mig.getValue())));
        }
        if (hami && gpus > 0) {
            if (gpus > 1) {
                return false;
            }
            long memory = memoryMib > 0 ? memoryMib : cardMemoryMib == null ? 0 : cardMemoryMib * memoryPercentage / 100;
            if (freeMemoryMib != null && memory > freeMemoryMib) {
                return false;
            }
            share = share.add(policy.vgpu(cores, memory, cardMemoryMib));
        } else {
            share = share.add(BigDecimal.valueOf(gpus));
        }
        return share.compareTo(freeShare) <= 0;
    }
}
