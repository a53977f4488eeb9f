package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimGpu;
import io.gpumeter.launcher.simulator.SimNode;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the nodes' kernels report: on the node whose driver was upgraded two days before the end (the whole-card
 * node), a card falls off the bus twice after the upgrade — card 6 27 hours before the end, back 9 minutes later, and
 * card 3 95 minutes before the end, back 12 minutes later; on the MIG node, card 5 reports a double-bit ECC error
 * (Xid 48) a quarter of an hour before the end; and node-problem-detector reports a kernel OOM kill on the first HAMi
 * node ten minutes before the end.
 */
final class DemoNodeLogs {

    private static final DateTimeFormatter KMSG = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final Plan plan;
    private final Instant end;

    DemoNodeLogs(Plan plan, Instant end) {
        this.plan = plan;
        this.end = end;
    }

    /** The Xid 79s of the upgraded node, in order: both after its driver upgrade. */
    List<Instant> xid79s() {
        return List.of(end.minus(Duration.ofHours(27)), end.minus(Duration.ofMinutes(95)));
    }

    /** When card 5 of the MIG node reports its double-bit ECC error. */
    Instant xid48At() {
        return end.minus(Duration.ofMinutes(15));
    }

    /** The card a kernel log line names, by a PCI address made from its index. */
    static String pciBus(SimGpu gpu) {
        return String.format(Locale.ROOT, "0000:%02x:00", 0x18 + 0x10 * gpu.index());
    }

    /** Each node's kernel log that has something to say, as {@code dmesg} prints it. */
    List<DemoSignals.Push> kernelLogPushes() {
        List<DemoSignals.Push> out = new ArrayList<>();
        String upgraded = plan.stack().upgrade().node();
        for (SimNode node : plan.nodes()) {
            StringBuilder log = new StringBuilder();
            if (node.name().equals(upgraded)) {
                fallsOffTheBus(log, node.gpus().get(6), xid79s().get(0), Duration.ofMinutes(9));
                fallsOffTheBus(log, node.gpus().get(3), xid79s().get(1), Duration.ofMinutes(12));
            } else if (node.pool() == GpuPool.MIG) {
                SimGpu gpu = node.gpus().get(5);
                Instant at = xid48At();
                log.append('[').append(KMSG.format(at.minus(Duration.ofHours(2)))).append("] NVRM: GPU at PCI:")
                        .append(pciBus(gpu)).append(": ").append(gpu.uuid()).append('\n');
                log.append('[').append(KMSG.format(at)).append("] NVRM: Xid (PCI:").append(pciBus(gpu))
                        .append("): 48, pid=0, An uncorrectable double bit error (DBE) has been detected on GPU in the "
                                + "framebuffer at partition 6, subpartition 0.\n");
            }
            if (log.length() > 0) {
                out.add(new DemoSignals.Push("collector", "/api/v1/ingest/kmsg?node=" + node.name(), "text/plain",
                        log.toString()));
            }
        }
        return out;
    }

    /** An Xid 79 on {@code gpu} at {@code at}, and the driver finding the card again {@code back} later. */
    private static void fallsOffTheBus(StringBuilder log, SimGpu gpu, Instant at, Duration back) {
        log.append('[').append(KMSG.format(at)).append("] NVRM: Xid (PCI:").append(pciBus(gpu))
                .append("): 79, pid=0, GPU has fallen off the bus.\n");
        log.append('[').append(KMSG.format(at.plus(back))).append("] NVRM: GPU at PCI:").append(pciBus(gpu))
                .append(": ").append(gpu.uuid()).append('\n');
    }

    /** node-problem-detector's Event of a kernel OOM kill on the first HAMi node, as a watch event. */
    String oomEventNdjson() {
        SimNode node = plan.nodes().stream().filter(n -> n.pool() == GpuPool.HAMI).findFirst().orElseThrow();
        Instant at = end.minus(Duration.ofMinutes(10));
        String time = Rfc3339.format(at);
        ObjectNode event = WatchEvents.object("v1", "Event", node.name() + ".oom", "default",
                "demo-ev-oom-" + node.name(), "1", at);
        event.putObject("involvedObject").put("kind", "Node").put("name", node.name()).put("uid", node.uid());
        event.put("reason", "OOMKilling").put("message", "Killed process 48213 (python) total-vm:91234560kB, "
                + "anon-rss:65011712kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:130000kB oom_score_adj:999");
        event.putObject("source").put("component", "kernel-monitor").put("host", node.name());
        event.put("firstTimestamp", time).put("lastTimestamp", time).put("count", 1).put("type", "Warning");
        return WatchEvents.line("ADDED", event) + "\n";
    }
}
