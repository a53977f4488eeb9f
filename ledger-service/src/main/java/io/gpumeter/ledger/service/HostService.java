package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.fact.HostBatch;
import io.gpumeter.common.fact.HostContainerMinute;
import io.gpumeter.common.fact.HostNodeMinute;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.host.domain.HostSeries;
import io.gpumeter.ledger.repository.HostRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Stores host minutes — GPU pods' cgroups and GPU nodes — in one transaction per batch, so a refused batch stored
 * nothing; a minute sent again is stored once, the version covering most of it kept. Reads them back in bulk.
 */
@ApplicationScoped
public class HostService {

    /** What a host batch did: minutes written (new, or covering more than the stored one) and minutes left as they were. */
    public record HostResult(int stored, int unchanged) {
    }

    private final Pool pool;
    private final HostRepository host;

    public HostService(Pool pool, HostRepository host) {
        this.pool = pool;
        this.host = host;
    }

    public Uni<HostResult> ingest(HostBatch batch) {
        validate(batch);
        List<HostContainerMinute> containers = best(batch.containers(),
                c -> c.namespace() + '\u0000' + c.pod() + '\u0000' + c.container() + '\u0000' + c.minute(),
                Comparator.comparingInt(HostContainerMinute::coveredMs).thenComparingInt(HostContainerMinute::samples));
        List<HostNodeMinute> nodes = best(batch.nodes(), n -> n.node() + '\u0000' + n.minute(),
                Comparator.comparingInt(HostNodeMinute::coveredMs).thenComparingInt(HostNodeMinute::samples));
        String cluster = batch.cluster();
        return pool.withTransaction(conn -> host.ensurePartitions(conn, "host_container_minute",
                        days(containers, HostContainerMinute::minute))
                .chain(() -> host.ensurePartitions(conn, "host_node_minute", days(nodes, HostNodeMinute::minute)))
                .chain(() -> host.storeContainers(conn, cluster, containers))
                .chain(a -> host.storeNodes(conn, cluster, nodes).map(b -> new HostResult(a + b, batch.size() - a - b))));
    }

    public Uni<HostSeries> series(String cluster, List<String> pods, List<String> nodes, Instant from, Instant to) {
        return host.containers(cluster, pods, from, to)
                .chain(c -> host.nodes(cluster, nodes, from, to).map(n -> new HostSeries(c, n)));
    }

    /** Of rows sharing a key, the one the order puts last; the others add nothing the ledger would keep. */
    private static <T> List<T> best(List<T> rows, Function<T, String> key, Comparator<T> order) {
        Map<String, T> kept = new LinkedHashMap<>();
        for (T row : rows) {
            kept.merge(key.apply(row), row, (a, b) -> order.compare(b, a) > 0 ? b : a);
        }
        return new ArrayList<>(kept.values());
    }

    private static <T> Set<LocalDate> days(List<T> rows, Function<T, Instant> minute) {
        Set<LocalDate> days = new TreeSet<>();
        rows.forEach(r -> days.add(LocalDate.ofInstant(minute.apply(r), ZoneOffset.UTC)));
        return days;
    }

    static void validate(HostBatch batch) {
        if (batch == null) {
            throw ApiProblem.badRequest("body", "a host batch is required: {\"cluster\",\"containers\":[…],\"nodes\":[…]}");
        }
        ClusterName.require("cluster", batch.cluster());
        for (int i = 0; i < batch.containers().size(); i++) {
            HostContainerMinute c = batch.containers().get(i);
            String at = "containers[" + i + "].";
            if (c == null) {
                throw ApiProblem.badRequest("containers[" + i + "]", "containers[" + i + "] is null");
            }
            text(at + "node", c.node());
            text(at + "namespace", c.namespace());
            text(at + "pod", c.pod());
            if (c.container() == null) {
                throw ApiProblem.badRequest(at + "container", at + "container is required (\"\" for the pod itself)");
            }
            span(at, c.minute(), c.coveredMs(), c.samples());
            amounts(at, new String[] {"cpuSeconds", "cfsPeriods", "cfsThrottledPeriods", "cpuLimitCores", "fsReadBytes",
                    "fsWriteBytes", "netReceiveBytes", "netTransmitBytes"}, c.cpuSeconds(), c.cfsPeriods(),
                    c.cfsThrottledPeriods(), c.cpuLimitCores(), c.fsReadBytes(), c.fsWriteBytes(), c.netReceiveBytes(),
                    c.netTransmitBytes());
        }
        for (int i = 0; i < batch.nodes().size(); i++) {
            HostNodeMinute n = batch.nodes().get(i);
            String at = "nodes[" + i + "].";
            if (n == null) {
                throw ApiProblem.badRequest("nodes[" + i + "]", "nodes[" + i + "] is null");
            }
            text(at + "node", n.node());
            span(at, n.minute(), n.coveredMs(), n.samples());
            if (n.cpus() != null && n.cpus() < 0) {
                throw ApiProblem.badRequest(at + "cpus", at + "cpus must be 0 or more, got " + n.cpus());
            }
            amounts(at, new String[] {"cpuIdleSeconds", "cpuIowaitSeconds", "cpuUserSeconds", "cpuSystemSeconds",
                    "cpuOtherSeconds", "cpuPressureWaitingSeconds", "ioPressureStalledSeconds",
                    "memoryPressureStalledSeconds", "netReceiveBytes", "netTransmitBytes", "netReceiveDrops",
                    "netTransmitDrops"}, n.cpuIdleSeconds(), n.cpuIowaitSeconds(), n.cpuUserSeconds(),
                    n.cpuSystemSeconds(), n.cpuOtherSeconds(), n.cpuPressureWaitingSeconds(),
                    n.ioPressureStalledSeconds(), n.memoryPressureStalledSeconds(), n.netReceiveBytes(),
                    n.netTransmitBytes(), n.netReceiveDrops(), n.netTransmitDrops());
        }
    }

    private static void text(String field, String value) {
        if (value == null || value.isBlank()) {
            throw ApiProblem.badRequest(field, field + " is required");
        }
    }

    private static void span(String at, Instant minute, int coveredMs, int samples) {
        if (minute == null || !minute.equals(minute.truncatedTo(ChronoUnit.MINUTES))) {
            throw ApiProblem.badRequest(at + "minute", at + "minute is required, a whole minute such as 2026-07-01T10:00:00Z");
        }
        if (coveredMs < 0 || coveredMs > 60_000) {
            throw ApiProblem.badRequest(at + "coveredMs", at + "coveredMs must be 0..60000 (milliseconds of the minute), got "
                    + coveredMs);
        }
        if (samples < 0) {
            throw ApiProblem.badRequest(at + "samples", at + "samples must be 0 or more, got " + samples);
        }
    }

    private static void amounts(String at, String[] names, Double... values) {
        for (int i = 0; i < names.length; i++) {
            Double v = values[i];
            if (v != null && (!Double.isFinite(v) || v < 0)) {
                throw ApiProblem.badRequest(at + names[i], at + names[i] + " must be a finite number >= 0 or null, got " + v);
            }
        }
    }
}
