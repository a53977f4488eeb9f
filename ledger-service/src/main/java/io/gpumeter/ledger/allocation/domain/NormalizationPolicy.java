package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.ledger.inventory.domain.GpuModels;
import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/**
 * The versioned conversion of every kind of unit to card-equivalents (whole card = 1).
 *
 * @param migSlices compute slices per canonical model name (see {@link GpuModels})
 */
public record NormalizationPolicy(String version, VgpuRule vgpuRule, BigDecimal coreWeight, int migDefaultSlices,
                                  Map<String, Integer> migSlices, Long defaultCardMemoryMib) {

    /** Fractions keep twelve decimals: a month of 1/7 card is then exact to 1e-9 GPU-hours. */
    public static final int SCALE = 12;

    public NormalizationPolicy {
        TreeMap<String, Integer> canonical = new TreeMap<>();
        migSlices.forEach((model, slices) -> canonical.put(GpuModels.canonical(model), slices));
        migSlices = Map.copyOf(canonical);
    }

    public BigDecimal whole() {
        return BigDecimal.ONE;
    }

    public BigDecimal timeSliced(int replicas) {
        return ratio(1, Math.max(1, replicas));
    }

    /**
     * A MIG unit's share of its card; a card whose model is not known yet (a pod still Pending, a node not seen
     * yet) or not configured counts the default slices.
     */
    public BigDecimal mig(MigProfile profile, String model) {
        return ratio(profile.computeSlices(), migSlicesOf(model)).min(BigDecimal.ONE);
    }

    /** The compute slices of a card of this model: its own count, else the default. */
    public int migSlicesOf(String model) {
        return knowsMigSlices(model) ? migSlices.get(GpuModels.canonical(model)) : migDefaultSlices;
    }

    /** Whether this card model has its own slice count, rather than the default one. */
    public boolean knowsMigSlices(String model) {
        String canonical = GpuModels.canonical(model);
        return canonical != null && migSlices.containsKey(canonical);
    }

    /**
     * A vGPU share; cores 0 means no core reservation and contributes nothing. Without a known card memory the
     * memory share cannot be computed, so the core share decides, and a share with neither bills a whole card.
     */
    public BigDecimal vgpu(int cores, long memoryMib, Long cardMemoryMib) {
        Long card = cardMemoryMib != null && cardMemoryMib > 0 ? cardMemoryMib : defaultCardMemoryMib;
        BigDecimal coreShare = ratio(Math.max(0, cores), 100);
        if (card == null) {
            return cores > 0 ? coreShare.min(BigDecimal.ONE) : BigDecimal.ONE;
        }
        BigDecimal memoryShare = ratio(Math.max(0, memoryMib), card);
        BigDecimal share = switch (vgpuRule) {
            case MAX -> coreShare.max(memoryShare);
            case CORES -> cores > 0 ? coreShare : memoryShare;
            case MEMORY -> memoryShare;
            case WEIGHTED -> coreWeight.multiply(coreShare)
                    .add(BigDecimal.ONE.subtract(coreWeight).multiply(memoryShare))
                    .setScale(SCALE, RoundingMode.HALF_EVEN);
        };
        return share.min(BigDecimal.ONE);
    }

    /** The rules in words, printed on every report next to the version. */
    public String describe() {
        String vgpu = switch (vgpuRule) {
            case MAX -> "vgpu=min(1,max(cores/100,memMiB/cardMiB))";
            case CORES -> "vgpu=cores/100 (memMiB/cardMiB when cores=0)";
            case MEMORY -> "vgpu=memMiB/cardMiB";
            case WEIGHTED -> "vgpu=" + coreWeight.toPlainString() + "*cores/100+" + BigDecimal.ONE.subtract(coreWeight).toPlainString() + "*memMiB/cardMiB";
        };
        StringBuilder mig = new StringBuilder("mig=computeSlices/" + migDefaultSlices);
        migSlices.forEach((model, slices) -> mig.append(",").append(model).append(":").append(slices));
        return "whole=1; " + mig + "; " + vgpu + "; timeslice=1/replicas";
    }

    private static BigDecimal ratio(long numerator, long denominator) {
        return BigDecimal.valueOf(numerator).divide(BigDecimal.valueOf(denominator), SCALE, RoundingMode.HALF_EVEN);
    }
}
