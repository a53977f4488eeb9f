package io.gpumeter.slo.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The stand-in ledger's GPU-hours with energy ({@code GET /api/v1/gpu-hours?groupBy=…}) for groupings by pod,
 * namespace, tenant, cluster and model: the units a test put in {@link #UNITS}, grouped and written as the ledger's
 * {@code GpuHours} rows are — key the values joined with '/' in the order asked, {@code group} by each dimension's
 * label (a pod as "namespace/pod"), rows in the order of their values, allocated hours summed, {@code energyKWh} the
 * joules over 3.6e6 to 9 places (0 for units never measured: the ledger's figure, which is why its source and coverage
 * tell what was measured), {@code energyCoverage} the measured share of the allocated hours to 6 places and at most 1,
 * {@code energySource} the sources in name order (null for none), no used hours measured (usage confidence NONE) and
 * no idle energy (null when grouped by a pod's dimensions). A unit is answered whole by a window that holds its stretch;
 * a window cutting one is answered 500, since this stand-in cannot split a unit's energy as the ledger does by minute.
 */
final class FakeEnergy {

    /** One unit a pod held over [from, to), with the energy of its share of the card then. */
    record Unit(String cluster, String namespace, String pod, String model, String tenant, Instant from, Instant to,
                String allocatedGpuHours, double joules, String energyCoveredGpuHours, String source) {

        /** A whole window's unit measured throughout (its covered hours all its hours). */
        Unit(String cluster, String namespace, String pod, Instant from, Instant to, String allocatedGpuHours,
             double joules, String source) {
            this(cluster, namespace, pod, "NVIDIA-H100-80GB-HBM3", "t-" + namespace, from, to, allocatedGpuHours,
                    joules, source == null ? "0" : allocatedGpuHours, source);
        }
    }

    static final List<Unit> UNITS = new CopyOnWriteArrayList<>();

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> DIMENSIONS = Set.of("pod", "namespace", "tenant", "cluster", "model");
    private static final BigDecimal JOULES_PER_KWH = BigDecimal.valueOf(3_600_000);

    private FakeEnergy() {
    }

    /**
     * The answer to a GPU-hours read: the {@code canned} rows (another test's, may be null) and the units' rows; null
     * when this stand-in does not answer the grouping (a card's own dimensions carry idle energy it does not model).
     */
    static FakeHost.Answer answer(Map<String, String> query, String canned) {
        String groupBy = query.getOrDefault("groupBy", "tenant");
        List<String> dims = List.of(groupBy.split(","));
        if (UNITS.isEmpty() || !DIMENSIONS.containsAll(dims) || dims.stream().noneMatch(d -> !d.equals("cluster")
                && !d.equals("model"))) {
            return null;
        }
        Instant from = Instant.parse(query.get("from"));
        Instant to = Instant.parse(query.get("to"));
        Map<List<String>, List<Unit>> groups = new TreeMap<>((a, b) -> String.join("\u0000", a)
                .compareTo(String.join("\u0000", b)));
        for (Unit u : UNITS) {
            if (!u.from().isBefore(to) || !u.to().isAfter(from)) {
                continue;
            }
            if (u.from().isBefore(from) || u.to().isAfter(to)) {
                return new FakeHost.Answer(500, "{\"title\":\"the stand-in cannot split a unit's energy at a window's"
                        + " edge\"}");
            }
            groups.computeIfAbsent(dims.stream().map(d -> value(u, d)).toList(), k -> new ArrayList<>()).add(u);
        }
        try {
            ArrayNode out = canned == null ? JSON.createArrayNode() : (ArrayNode) JSON.readTree(canned);
            groups.forEach((values, units) -> out.add(row(dims, values, units)));
            return new FakeHost.Answer(200, JSON.writeValueAsString(out));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String value(Unit u, String dimension) {
        return switch (dimension) {
            case "pod" -> u.namespace() + "/" + u.pod();
            case "namespace" -> u.namespace();
            case "tenant" -> u.tenant();
            case "cluster" -> u.cluster();
            default -> u.model();
        };
    }

    /** One group's row as the ledger's GpuHours.of writes it when no activity was measured. */
    private static JsonNode row(List<String> dims, List<String> values, List<Unit> units) {
        BigDecimal allocated = BigDecimal.ZERO;
        BigDecimal covered = BigDecimal.ZERO;
        double joules = 0;
        Set<String> sources = new TreeSet<>();
        for (Unit u : units) {
            allocated = allocated.add(new BigDecimal(u.allocatedGpuHours()));
            covered = covered.add(new BigDecimal(u.energyCoveredGpuHours()));
            joules += u.joules();
            if (u.source() != null) {
                sources.add(u.source());
            }
        }
        allocated = allocated.stripTrailingZeros();
        Map<String, String> group = new LinkedHashMap<>();
        for (int i = 0; i < dims.size(); i++) {
            group.put(dims.get(i), values.get(i));
        }
        ObjectNode row = JSON.createObjectNode().put("key", String.join("/", values));
        row.set("group", JSON.valueToTree(group));
        row.put("allocatedGpuHours", allocated).put("usedGpuHours", BigDecimal.ZERO).put("idleGpuHours", allocated)
                .put("usageCoverage", BigDecimal.ZERO).putNull("activityMetric").put("usageConfidence", "NONE")
                .putNull("usageSource")
                .put("energyKWh", BigDecimal.valueOf(joules).divide(JOULES_PER_KWH, 9, RoundingMode.HALF_EVEN)
                        .stripTrailingZeros())
                .put("energyCoverage", allocated.signum() == 0 || covered.signum() == 0 ? BigDecimal.ZERO
                        : covered.divide(allocated, 6, RoundingMode.HALF_EVEN).min(BigDecimal.ONE));
        if (sources.isEmpty()) {
            row.putNull("energySource");
        } else {
            row.put("energySource", String.join(",", sources));
        }
        row.putNull("idleEnergyKWh");
        return row;
    }
}
