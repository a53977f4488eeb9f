package io.gpumeter.slo.service;

import io.gpumeter.slo.client.HostSeries;
import io.gpumeter.slo.client.UsagePoint;
import io.gpumeter.slo.domain.SuspectKind;
import io.gpumeter.slo.domain.SuspectRanking;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The host's and the card's pressures on a service around a jitter event, from what the ledger answered: per pod its
 * CFS throttling and its share of its node's network, per node its CPU and I/O pressure stalls, per card its power and
 * thermal slowdowns — each a curve of ratios 0..1 on the event's minutes ({@link SuspectKind} says which), and each
 * pressure that could not be measured with what is missing. Pure: every fact comes in.
 */
public final class PressureCurves {

    /** A pod of the service at the event's start: its cluster and node (null: not placed) and its cards. */
    public record Placement(String pod, String cluster, String node, List<String> gpus) {
    }

    /**
     * What was read: the host series (null with {@code hostFailure} saying why when the read failed), and the cards'
     * usage series (null with {@code usageFailure} likewise).
     */
    public record Read(HostSeries host, String hostFailure, Map<String, List<UsagePoint>> usage, String usageFailure) {
    }

    /** The pressures measured and those that could not be. */
    public record Found(List<JitterEvidence.Pressure> pressures, List<JitterEvidence.Unmeasured> unmeasured) {
    }

    private PressureCurves() {
    }

    public static Found of(List<Placement> pods, Read read) {
        List<JitterEvidence.Pressure> pressures = new ArrayList<>();
        List<JitterEvidence.Unmeasured> unmeasured = new ArrayList<>();
        Sink sink = new Sink(pressures, unmeasured, read);
        Map<String, Placement> nodes = new TreeMap<>();
        Map<String, Placement> cards = new TreeMap<>();
        for (Placement p : pods) {
            if (p.node() == null || p.cluster() == null) {
                String why = "no card or node of pod " + p.pod() + " is known at the event's start, so its host"
                        + " series were not asked";
                sink.missing(SuspectKind.CPU_THROTTLING, p.pod(), why);
                sink.missing(SuspectKind.NETWORK, p.pod(), why);
                sink.missing(SuspectKind.NODE_CPU_PRESSURE, "the node of " + p.pod(), why);
                sink.missing(SuspectKind.NODE_IO_PRESSURE, "the node of " + p.pod(), why);
                continue;
            }
            throttling(p, sink);
            network(p, sink);
            nodes.putIfAbsent(p.node(), p);
            p.gpus().forEach(g -> cards.putIfAbsent(g, p));
        }
        nodes.forEach((node, p) -> {
            nodeRatio(SuspectKind.NODE_CPU_PRESSURE, p, HostSeries.NodePoint::cpuPressureWaitingSeconds,
                    "no CPU pressure stall of node " + node + " in the ledger's host series (node-exporter's"
                            + " node_pressure_cpu_waiting_seconds_total, read where the kernel has PSI)", sink);
            nodeRatio(SuspectKind.NODE_IO_PRESSURE, p, HostSeries.NodePoint::ioPressureStalledSeconds,
                    "no I/O pressure stall of node " + node + " in the ledger's host series (node-exporter's"
                            + " node_pressure_io_stalled_seconds_total, read where the kernel has PSI)", sink);
        });
        cards.forEach((gpu, p) -> card(gpu, p, sink));
        pressures.sort(Comparator.comparing((JitterEvidence.Pressure x) -> SuspectKind.ofLabel(x.kind()))
                .thenComparing(JitterEvidence.Pressure::subject));
        return new Found(List.copyOf(pressures), List.copyOf(unmeasured));
    }

    /** Each pressure as a suspect to rank beside the neighbours: its kind's curves, no arrival. */
    public static List<SuspectRanking.Candidate> candidates(List<JitterEvidence.Pressure> pressures) {
        List<SuspectRanking.Candidate> out = new ArrayList<>();
        for (JitterEvidence.Pressure p : pressures) {
            Map<String, List<SuspectRanking.MinuteValue>> curves = new TreeMap<>();
            p.curves().forEach((field, c) -> curves.put(field, c.points().stream()
                    .map(x -> new SuspectRanking.MinuteValue(x.minute(), x.mean())).toList()));
            out.add(new SuspectRanking.Candidate(p.key(), SuspectKind.ofLabel(p.kind()), null, curves));
        }
        return out;
    }

    /**
     * The pod's containers' CFS periods throttled over periods run, summed per minute; the pod's own cgroup when no
     * container reports them. A pod with CPU seconds but no CPU limit is never throttled: nothing to measure, and no
     * gap (its node's CPU pressure tells a CPU shortage).
     */
    private static void throttling(Placement p, Sink sink) {
        List<HostSeries.ContainerPoint> mine = sink.containers(p);
        Predicate<HostSeries.ContainerPoint> cfs = c -> c.cfsPeriods() != null && c.cfsThrottledPeriods() != null;
        List<HostSeries.ContainerPoint> containers = mine.stream().filter(c -> !"".equals(c.container()) && cfs.test(c))
                .toList();
        String scope = "CONTAINER";
        if (containers.isEmpty()) {
            containers = mine.stream().filter(c -> "".equals(c.container()) && cfs.test(c)).toList();
            scope = "POD";
        }
        if (containers.isEmpty()) {
            boolean unlimited = mine.stream().anyMatch(c -> c.cpuSeconds() != null)
                    && mine.stream().allMatch(c -> c.cpuLimitCores() == null);
            if (!unlimited) {
                sink.missing(SuspectKind.CPU_THROTTLING, p.pod(), "no CFS periods of pod " + p.pod() + " in the ledger's"
                        + " host series (the kubelet's cAdvisor container_cpu_cfs_periods_total and"
                        + " container_cpu_cfs_throttled_periods_total)");
            }
            return;
        }
        Map<Instant, double[]> sums = new TreeMap<>();
        for (HostSeries.ContainerPoint c : containers) {
            double[] s = sums.computeIfAbsent(c.at(), m -> new double[2]);
            s[0] += c.cfsThrottledPeriods();
            s[1] += c.cfsPeriods();
        }
        Map<Instant, Double> ratio = new TreeMap<>();
        sums.forEach((at, s) -> ratio.put(at, s[1] <= 0 ? 0 : s[0] / s[1]));
        sink.measured(SuspectKind.CPU_THROTTLING, p.pod(), p, Map.of("CFS_THROTTLED_RATIO", curve(scope, ratio)));
    }

    /** The pod's bytes received and sent per second over its node's, per minute both report. */
    private static void network(Placement p, Sink sink) {
        Map<Instant, Double> node = new TreeMap<>();
        for (HostSeries.NodePoint n : sink.nodes(p)) {
            Double bytes = sum(n.netReceiveBytes(), n.netTransmitBytes());
            if (bytes != null && n.coveredSeconds() > 0) {
                node.put(n.at(), bytes / n.coveredSeconds());
            }
        }
        Map<Instant, Double> share = new TreeMap<>();
        for (HostSeries.ContainerPoint c : sink.containers(p)) {
            Double bytes = sum(c.netReceiveBytes(), c.netTransmitBytes());
            Double nodeRate = node.get(c.at());
            if (!"".equals(c.container()) || bytes == null || nodeRate == null || c.coveredSeconds() <= 0) {
                continue;
            }
            double rate = bytes / c.coveredSeconds();
            share.put(c.at(), nodeRate <= 0 ? (rate > 0 ? 1 : 0) : Math.min(1, rate / nodeRate));
        }
        if (share.isEmpty()) {
            sink.missing(SuspectKind.NETWORK, p.pod(), "no network bytes of pod " + p.pod() + " and of its node "
                    + p.node() + " in the same minutes of the ledger's host series (cAdvisor's"
                    + " container_network_*_bytes_total, node-exporter's node_network_*_bytes_total)");
            return;
        }
        sink.measured(SuspectKind.NETWORK, p.pod(), p, Map.of("NETWORK_SHARE", curve("POD", share)));
    }

    /** A node's stall seconds per second covered, per minute. */
    private static void nodeRatio(SuspectKind kind, Placement p, Function<HostSeries.NodePoint, Double> stalled,
                                  String missing, Sink sink) {
        Map<Instant, Double> ratio = new TreeMap<>();
        for (HostSeries.NodePoint n : sink.nodes(p)) {
            Double s = stalled.apply(n);
            if (s != null && n.coveredSeconds() > 0) {
                ratio.put(n.at(), Math.min(1, s / n.coveredSeconds()));
            }
        }
        if (ratio.isEmpty()) {
            sink.missing(kind, p.node(), missing);
            return;
        }
        sink.measured(kind, p.node(), p, Map.of(kind.riseFields().get(0), curve("NODE", ratio)));
    }

    /** The card's reasons of power or heat (share of each minute's samples) and violation seconds per second. */
    private static void card(String gpu, Placement p, Sink sink) {
        if (sink.read.usage() == null) {
            sink.missing(SuspectKind.CARD_CLOCKS, gpu, "the usage series of card " + gpu + " could not be read ("
                    + sink.read.usageFailure() + ")");
            return;
        }
        List<UsagePoint> usage = sink.read.usage().getOrDefault(gpu, List.of());
        Map<String, JitterEvidence.Curve> curves = new LinkedHashMap<>();
        for (String field : SuspectKind.CARD_CLOCKS.riseFields()) {
            List<JitterEvidence.Point> points = usage.stream()
                    .filter(u -> field.equals(u.field()) && "DEVICE".equals(u.scope()))
                    .sorted(Comparator.comparing(UsagePoint::minute))
                    .map(u -> new JitterEvidence.Point(u.minute(), Math.min(1, u.mean()), Math.min(1, u.max())))
                    .toList();
            if (!points.isEmpty()) {
                curves.put(field, new JitterEvidence.Curve("DEVICE", points));
            }
        }
        if (curves.isEmpty()) {
            boolean raw = usage.stream().anyMatch(u -> "THROTTLE_REASONS".equals(u.field()));
            sink.missing(SuspectKind.CARD_CLOCKS, gpu, "no clocks-event reasons of power or heat and no power or"
                    + " thermal violation counters of card " + gpu + " in its usage series" + (raw
                    ? " (only the raw THROTTLE_REASONS bitmask, whose minute means cannot be taken apart into reasons)"
                    : ""));
            return;
        }
        sink.measured(SuspectKind.CARD_CLOCKS, gpu, p, curves);
    }

    private static JitterEvidence.Curve curve(String scope, Map<Instant, Double> values) {
        List<JitterEvidence.Point> points = new ArrayList<>();
        values.forEach((at, v) -> points.add(new JitterEvidence.Point(at, round(v), round(v))));
        return new JitterEvidence.Curve(scope, points);
    }

    private static Double sum(Double a, Double b) {
        return a == null && b == null ? null : (a == null ? 0 : a) + (b == null ? 0 : b);
    }

    private static double round(double v) {
        return Math.round(v * 1_000_000d) / 1_000_000d;
    }

    /** Where pressures and gaps go, and the host series by pod and by node. */
    private record Sink(List<JitterEvidence.Pressure> pressures, List<JitterEvidence.Unmeasured> unmeasured, Read read) {

        List<HostSeries.ContainerPoint> containers(Placement p) {
            return read.host() == null ? List.of() : read.host().containers().stream()
                    .filter(c -> c.podKey().equals(p.pod()) && (c.cluster() == null || c.cluster().equals(p.cluster())))
                    .toList();
        }

        List<HostSeries.NodePoint> nodes(Placement p) {
            return read.host() == null ? List.of() : read.host().nodes().stream()
                    .filter(n -> p.node().equals(n.node()) && (n.cluster() == null || n.cluster().equals(p.cluster())))
                    .toList();
        }

        void measured(SuspectKind kind, String subject, Placement p, Map<String, JitterEvidence.Curve> curves) {
            pressures.add(new JitterEvidence.Pressure(kind.key(subject), kind.label(), kind.cause().label(), subject,
                    p.cluster(), p.node(), new TreeMap<>(curves)));
        }

        /** A pressure not measured; when the host read failed, that is why for every host pressure. */
        void missing(SuspectKind kind, String subject, String why) {
            String said = kind != SuspectKind.CARD_CLOCKS && read.host() == null && read.hostFailure() != null
                    ? "the ledger's host series could not be read (" + read.hostFailure() + ")" : why;
            unmeasured.add(new JitterEvidence.Unmeasured(kind.label(), kind.cause().label(), subject, said));
        }
    }
}
