package io.gpumeter.slo.rest;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ledger's answers to slo-service's reads, in the ledger's own shapes, for the tests to state what each read
 * answers: a unit held, a card's usage minute, the book's changes and a scope of them, a container's and a node's
 * host minute, a row of GPU-hours with energy.
 * Nothing here picks or cuts: the test names every item of an answer.
 */
final class LedgerShapes {

    private static final BigDecimal JOULES_PER_KWH = BigDecimal.valueOf(3_600_000);

    private LedgerShapes() {
    }

    /** One minute of one usage series of a card, as the ledger's UsagePoint (four samples, all at the mean). */
    static Map<String, Object> point(String scope, String scopeKey, String field, Instant minute, double mean) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("scope", scope);
        p.put("scopeKey", scopeKey);
        p.put("field", field);
        p.put("minute", minute.toString());
        p.put("mean", mean);
        p.put("max", mean);
        p.put("samples", 4);
        return p;
    }

    /** One change of the book ({@code node} null: cluster-wide), as a change the ledger's node labels recorded. */
    static Map<String, Object> change(String id, Instant at, String cluster, String node, String kind, String subject,
                                      String before, String after) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("id", id);
        c.put("at", at.toString());
        c.put("cluster", cluster);
        c.put("node", node);
        c.put("kind", kind);
        c.put("subject", subject);
        c.put("before", before);
        c.put("after", after);
        c.put("source", "node labels");
        c.put("count", 1);
        return c;
    }

    /**
     * One scope of a bulk read of the book: a node's changes and its cluster's cluster-wide ones in [from, to), the
     * newest first, {@code total} of them in the window and these the first the read's limit lets through.
     */
    static Map<String, Object> scope(String cluster, String node, String from, String to, int total,
                                     List<Map<String, Object>> changes) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("cluster", cluster);
        s.put("node", node);
        s.put("from", from);
        s.put("to", to);
        s.put("total", total);
        s.put("changes", changes);
        return s;
    }

    /** A container's minute of a GPU pod (container "": the pod itself); amounts over {@code coveredSeconds}. */
    static Map<String, Object> containerMinute(String namespace, String pod, String container, String node, Instant at,
                                               double coveredSeconds, Double cpuSeconds, Double cfsPeriods,
                                               Double cfsThrottledPeriods, Double cpuLimitCores, Double netReceiveBytes,
                                               Double netTransmitBytes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cluster", "c1");
        m.put("namespace", namespace);
        m.put("pod", pod);
        m.put("container", container);
        m.put("node", node);
        minute(m, at, coveredSeconds);
        m.put("cpuSeconds", cpuSeconds);
        m.put("cfsPeriods", cfsPeriods);
        m.put("cfsThrottledPeriods", cfsThrottledPeriods);
        m.put("cpuLimitCores", cpuLimitCores);
        m.put("fsReadBytes", null);
        m.put("fsWriteBytes", null);
        m.put("netReceiveBytes", netReceiveBytes);
        m.put("netTransmitBytes", netTransmitBytes);
        return m;
    }

    /** A GPU node's minute of a 64-CPU node, mostly idle; pressure stalls in seconds over {@code coveredSeconds}. */
    static Map<String, Object> nodeMinute(String node, Instant at, double coveredSeconds, Double cpuPressureWaitingSeconds,
                                          Double ioPressureStalledSeconds, Double netReceiveBytes, Double netTransmitBytes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cluster", "c1");
        m.put("node", node);
        minute(m, at, coveredSeconds);
        m.put("cpus", 64);
        m.put("cpuIdleSeconds", 3000.0);
        m.put("cpuIowaitSeconds", 5.0);
        m.put("cpuUserSeconds", 500.0);
        m.put("cpuSystemSeconds", 100.0);
        m.put("cpuOtherSeconds", 0.0);
        m.put("cpuPressureWaitingSeconds", cpuPressureWaitingSeconds);
        m.put("ioPressureStalledSeconds", ioPressureStalledSeconds);
        m.put("memoryPressureStalledSeconds", 0.0);
        m.put("netReceiveBytes", netReceiveBytes);
        m.put("netTransmitBytes", netTransmitBytes);
        m.put("netReceiveDrops", 0.0);
        m.put("netTransmitDrops", 0.0);
        return m;
    }

    private static void minute(Map<String, Object> m, Instant at, double coveredSeconds) {
        m.put("at", at.toString());
        m.put("spanSeconds", 60);
        m.put("minutes", 1);
        m.put("coveredSeconds", coveredSeconds);
        m.put("samples", 4);
    }

    /** A unit as a holdings read answers it: held over [from, to) of the window asked. */
    static Map<String, Object> held(LedgerStandIn.Unit u, String from, String to) {
        Map<String, Object> occupant = new LinkedHashMap<>();
        occupant.put("cluster", "c1");
        occupant.put("node", u.node());
        occupant.put("gpuUuid", u.gpuUuid());
        occupant.put("namespace", u.namespace());
        occupant.put("pod", u.pod());
        occupant.put("podUid", "uid-" + u.pod());
        occupant.put("owner", Map.of("kind", u.ownerKind(), "name", u.ownerName()));
        occupant.put("tenant", u.tenant());
        Map<String, Object> unit = new LinkedHashMap<>();
        unit.put("kind", u.kind());
        unit.put("cores", u.cores());
        unit.put("memoryMiB", u.memoryMiB());
        unit.put("source", "WHOLE".equals(u.kind()) ? "device-plugin" : "hami-annotation");
        occupant.put("unit", unit);
        occupant.put("fraction", new BigDecimal(u.fraction()));
        occupant.put("since", u.since().toString());
        occupant.put("until", u.until() == null ? null : u.until().toString());
        Map<String, Object> held = new LinkedHashMap<>();
        held.put("from", from);
        held.put("to", to);
        held.put("occupant", occupant);
        return held;
    }

    /**
     * One row of GPU-hours with energy as the ledger answers it when no activity was measured: nothing used, all idle,
     * the energy in kWh to 9 places, the share of the hours it was measured for, its sources (null: none).
     */
    static Map<String, Object> energyRow(Map<String, String> group, String allocatedGpuHours, long joules,
                                         String energyCoverage, String energySource) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("key", String.join("/", group.values()));
        row.put("group", group);
        row.put("allocatedGpuHours", new BigDecimal(allocatedGpuHours));
        row.put("usedGpuHours", BigDecimal.ZERO);
        row.put("idleGpuHours", new BigDecimal(allocatedGpuHours));
        row.put("usageCoverage", BigDecimal.ZERO);
        row.put("activityMetric", null);
        row.put("usageConfidence", "NONE");
        row.put("usageSource", null);
        row.put("energyKWh", BigDecimal.valueOf(joules).divide(JOULES_PER_KWH, 9, RoundingMode.HALF_EVEN).stripTrailingZeros());
        row.put("energyCoverage", new BigDecimal(energyCoverage));
        row.put("energySource", energySource);
        row.put("idleEnergyKWh", null);
        return row;
    }
}
