package io.gpumeter.slo.efficiency;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A pod's energy over a window as the ledger's GPU-hours answer it grouped by pod (and by cluster, model or anything
 * else beside it): the {@code energyKWh} its units took of their cards' energy, summed over its rows. The ledger writes
 * 0 kWh for a pod whose cards were never measured, so what was measured is told by {@code energySource} and
 * {@code energyCoverage}, never by the figure: a pod none of whose rows has a source has no energy (null), not 0 J.
 *
 * @param joules             the units' energy in joules (kWh × 3.6e6); null when no row of the pod had energy measured
 * @param allocatedGpuHours  the pod's allocated GPU-hours in the window, every row's
 * @param energyCoveredHours the allocated GPU-hours during which its cards' energy was measured (coverage × allocated)
 * @param sources            where the energy came from (ENERGY_COUNTER, POWER_INTEGRAL)
 */
public record PodEnergy(String pod, Double joules, double allocatedGpuHours, double energyCoveredHours,
                        Set<String> sources) {

    /** Joules in a kilowatt-hour. */
    public static final double JOULES_PER_KWH = 3_600_000;

    /** The share of the allocated hours whose energy was measured; null without allocated hours. */
    public Double coverage() {
        return allocatedGpuHours > 0 ? Math.min(1, energyCoveredHours / allocatedGpuHours) : null;
    }

    /** The sources, comma-separated in name order as the ledger writes them; null for none. */
    public String source() {
        return sources.isEmpty() ? null : String.join(",", sources);
    }

    /**
     * Each of {@code pods} ("namespace/pod") the answer has a row of, from the rows whose {@code group.pod} names it;
     * a pod without a row is missing. An answer that is not a list has no pods.
     */
    public static Map<String, PodEnergy> of(JsonNode gpuHours, Collection<String> pods) {
        Map<String, PodEnergy> out = new TreeMap<>();
        if (gpuHours == null || !gpuHours.isArray()) {
            return out;
        }
        Set<String> wanted = Set.copyOf(pods);
        for (JsonNode row : gpuHours) {
            String pod = row.path("group").path("pod").asText(null);
            if (pod == null || !wanted.contains(pod)) {
                continue;
            }
            PodEnergy before = out.get(pod);
            out.put(pod, before == null ? row(pod, row) : before.plus(row(pod, row)));
        }
        return out;
    }

    private static PodEnergy row(String pod, JsonNode row) {
        double allocated = row.path("allocatedGpuHours").asDouble(0);
        String source = row.path("energySource").isTextual() ? row.path("energySource").asText() : null;
        Set<String> sources = new TreeSet<>();
        if (source != null && !source.isBlank()) {
            for (String s : source.split(",")) {
                sources.add(s.strip());
            }
        }
        // energy counts only where the ledger says it measured some: its 0 kWh of an unmeasured card is no figure
        Double joules = sources.isEmpty() || !row.path("energyKWh").isNumber() ? null
                : row.path("energyKWh").asDouble() * JOULES_PER_KWH;
        double covered = row.path("energyCoverage").asDouble(0) * allocated;
        return new PodEnergy(pod, joules, allocated, covered, sources);
    }

    private PodEnergy plus(PodEnergy other) {
        Set<String> both = new TreeSet<>(sources);
        both.addAll(other.sources);
        Double sum = joules == null ? other.joules : other.joules == null ? joules : joules + other.joules;
        return new PodEnergy(pod, sum, allocatedGpuHours + other.allocatedGpuHours,
                energyCoveredHours + other.energyCoveredHours, both);
    }
}
