package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.Grant;
import io.gpumeter.launcher.simulator.MigInstance;
import io.gpumeter.launcher.simulator.SimGpu;
import io.gpumeter.launcher.simulator.SimNode;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * dcgm-exporter's scrape of every node once a minute over the usage span, in the Prometheus text format: per card its
 * utilization, the profiling triad, framebuffer, power, clocks-event reasons and last Xid; per MIG instance a pod holds,
 * its own activity and memory; on HAMi nodes, the HAMi monitor's per-container vGPU series beside it.
 */
final class DemoDcgm {

    private static final List<String> CARD_METRICS = List.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
            "DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE",
            "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_XID_ERRORS");

    private final DemoSignals signals;
    private final DemoCards cards;
    private final DemoNeighbour neighbour;
    private final DemoNodeLogs nodeLogs;

    DemoDcgm(DemoSignals signals, DemoCards cards, DemoNeighbour neighbour, DemoNodeLogs nodeLogs) {
        this.signals = signals;
        this.cards = cards;
        this.neighbour = neighbour;
        this.nodeLogs = nodeLogs;
    }

    List<DemoSignals.Push> pushes() {
        List<DemoSignals.Push> out = new ArrayList<>();
        for (Instant minute : signals.minutes()) {
            long ts = minute.plusSeconds(30).toEpochMilli();
            for (SimNode node : signals.plan().nodes()) {
                StringBuilder hami = new StringBuilder();
                Map<String, StringBuilder> metrics = new LinkedHashMap<>();
                for (String name : CARD_METRICS) {
                    metrics.put(name, new StringBuilder("# TYPE ").append(name).append(" gauge\n"));
                }
                for (SimGpu gpu : node.gpus()) {
                    card(metrics, hami, node, gpu, minute, ts);
                }
                StringBuilder dcgm = new StringBuilder();
                metrics.values().forEach(dcgm::append);
                out.add(new DemoSignals.Push("collector", "/api/v1/ingest/dcgm?node=" + node.name(), "text/plain",
                        dcgm.toString()));
                if (hami.length() > 0) {
                    out.add(new DemoSignals.Push("collector", "/api/v1/ingest/hami-monitor?node=" + node.name(),
                            "text/plain", hami.toString()));
                }
            }
        }
        return out;
    }

    /** One card's series of one minute; a whole card held by one pod names it, as dcgm-exporter's pod mapping does. */
    private void card(Map<String, StringBuilder> metrics, StringBuilder hami, SimNode node, SimGpu gpu, Instant minute,
                      long ts) {
        CardMinute c = cards.card(gpu, minute);
        String base = "gpu=\"" + gpu.index() + "\",UUID=\"" + gpu.uuid() + "\",device=\"nvidia" + gpu.index()
                + "\",modelName=\"" + gpu.model() + "\",Hostname=\"" + node.name() + "\"";
        String labels = base;
        if (node.pool() == GpuPool.WHOLE_CARD && c.holders().size() == 1) {
            SimPod p = c.holders().get(0).pod();
            labels = base + ",namespace=\"" + p.namespace() + "\",pod=\"" + p.name() + "\"";
        }
        double util = c.sm() == 0 ? 0 : Math.min(100, Math.round(c.sm() * 100 + 8));
        line(metrics, "DCGM_FI_DEV_GPU_UTIL", labels, fmt(util), ts);
        line(metrics, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, fmt(Math.min(1, DemoCards.round(c.sm() * 1.05))), ts);
        line(metrics, "DCGM_FI_PROF_SM_ACTIVE", labels, fmt(c.sm()), ts);
        line(metrics, "DCGM_FI_PROF_DRAM_ACTIVE", labels, fmt(c.dram()), ts);
        line(metrics, "DCGM_FI_DEV_FB_USED", labels, fmt(c.fbUsedMib()), ts);
        line(metrics, "DCGM_FI_DEV_FB_FREE", labels, fmt(gpu.memoryMib() - c.fbUsedMib()), ts);
        boolean capped = signals.host().powerCapped(gpu.uuid(), minute);
        line(metrics, "DCGM_FI_DEV_POWER_USAGE", labels, fmt(capped ? 250 : DemoCards.round(70 + 330 * c.sm())), ts);
        line(metrics, "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", labels,
                String.valueOf(signals.host().clockEvents(gpu.uuid(), c.sm(), minute)), ts);
        line(metrics, "DCGM_FI_DEV_XID_ERRORS", base, xidAt(node, gpu, minute), ts);
        if (node.pool() == GpuPool.MIG) {
            for (CardMinute.Holder h : c.holders()) {
                migInstance(metrics, node, base, h, minute, ts);
            }
        }
        if (node.pool() == GpuPool.HAMI) {
            for (CardMinute.Holder h : c.holders()) {
                String vgpu = "deviceuuid=\"" + gpu.uuid() + "\",podnamespace=\"" + h.pod().namespace()
                        + "\",podname=\"" + h.pod().name() + "\",ctrname=\"main\",vdeviceid=\"0\"";
                vgpu(hami, vgpu, h.share(), cards.memoryUsedMib(h.pod(), h.grant(), minute), h.grant().memoryMib(), ts);
            }
            if (neighbour.holds(gpu.uuid(), minute.plusSeconds(30))) {
                vgpu(hami, neighbour.hamiLabels(), DemoNeighbour.SM_SHARE, DemoNeighbour.MEMORY_MIB,
                        DemoNeighbour.GRANT_MIB, ts);
            }
            DemoOom oom = signals.oom();
            if (oom.runs(gpu, minute)) {
                vgpu(hami, oom.hamiLabels(), DemoOom.SM_SHARE, oom.usedMib(minute), oom.grantMib(), ts);
            }
        }
    }

    /** A MIG instance's own series, as dcgm-exporter labels them with the instance's profile and id. */
    private void migInstance(Map<String, StringBuilder> metrics, SimNode node, String base, CardMinute.Holder h,
                             Instant minute, long ts) {
        MigInstance instance = instance(node, h.grant());
        if (instance == null) {
            return;
        }
        String mig = base + ",GPU_I_PROFILE=\"" + instance.profile().profile() + "\",GPU_I_ID=\"" + instanceId(instance)
                + "\",namespace=\"" + h.pod().namespace() + "\",pod=\"" + h.pod().name() + "\"";
        double act = cards.activity(h.pod(), minute);
        line(metrics, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", mig, fmt(act), ts);
        line(metrics, "DCGM_FI_PROF_SM_ACTIVE", mig, fmt(act), ts);
        line(metrics, "DCGM_FI_DEV_FB_USED", mig, fmt(Math.round(h.grant().memoryMib() * 0.7)), ts);
    }

    /** The last Xid a card reported by {@code minute}, as dcgm-exporter shows it: 0 for none. */
    private String xidAt(SimNode node, SimGpu gpu, Instant minute) {
        if (node.pool() == GpuPool.MIG && gpu.index() == 5 && !minute.isBefore(nodeLogs.xid48At())) {
            return "48";
        }
        return "0";
    }

    private static void vgpu(StringBuilder hami, String labels, double share, long usedMib, long limitMib, long ts) {
        hami.append("hami_container_device_utilization_ratio{").append(labels).append("} ")
                .append(fmt(DemoCards.round(share * 100))).append(' ').append(ts).append('\n');
        hami.append("hami_vgpu_memory_used_bytes{").append(labels).append("} ").append(usedMib * 1024 * 1024).append(' ')
                .append(ts).append('\n');
        hami.append("hami_vgpu_memory_limit_bytes{").append(labels).append("} ").append(limitMib * 1024 * 1024).append(' ')
                .append(ts).append('\n');
    }

    private static MigInstance instance(SimNode node, Grant grant) {
        return node.migInstances().stream().filter(i -> i.uuid().equals(grant.migUuid())).findFirst().orElse(null);
    }

    /** The GPU instance id the driver gives an instance: its slot on the card, from 1. */
    static int instanceId(MigInstance instance) {
        return instance.slot() + 1;
    }

    private static void line(Map<String, StringBuilder> metrics, String name, String labels, String value, long ts) {
        metrics.get(name).append(name).append('{').append(labels).append("} ").append(value).append(' ').append(ts)
                .append('\n');
    }

    /** A whole number without its decimal point, as Prometheus exporters print one. */
    static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
