package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Host series ingest at fleet scale beside GPU usage's, measured in the same run: every node's kubelet cAdvisor page
 * (each container of a GPU pod its CPU, CFS periods and throttling, CPU limit and disk; each pod its cgroup and its
 * sandbox's network) and node-exporter page (64 CPUs by mode, pressure, network) pushed every 30 s of their own
 * timestamps, as fast as the collector takes them; the clock stops when the ledger holds every minute the pushes
 * closed. The pods are made GPU pods the way dcgm-exporter's Kubernetes mode does it: a usage push naming them. Then
 * GPU usage (dcgm-exporter text, 10 fields per card) through the same collector into the ledger's rollups.
 * Usage: {@code bench/run host [nodes] [containers per node] [minutes]} (defaults 1,000 nodes, 100 containers, 2).
 */
public final class HostBench {

    private static final Instant START = Instant.parse("2026-05-04T00:00:00Z");
    private static final int CPUS = 64;
    private static final String[] MODES = {"idle", "iowait", "irq", "nice", "softirq", "steal", "system", "user"};

    private IngestRun ingest;

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int containers = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int minutes = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        try (Suite suite = IngestRun.start("host-run")) {
            new HostBench().run(suite, nodes, containers, minutes);
        }
    }

    private void run(Suite suite, int nodes, int containers, int minutes) throws Exception {
        ingest = new IngestRun(suite);
        DatabaseConnection db = suite.database().orElseThrow();
        URI collector = suite.url(Service.COLLECTOR);
        int rounds = 2 * minutes + 1; // a minute closes at the first scrape at or after its end
        long cadvisorSamples = (long) nodes * containers * 14 * rounds;
        long exporterSamples = (long) nodes * (CPUS * MODES.length + 7) * rounds;
        System.out.printf("gpumeter host ingest benchmark: %,d nodes x %d containers of GPU pods, %d scrapes 30 s apart"
                        + " (%d minutes closed), %,d cAdvisor + %,d node-exporter samples, %d cores%n", nodes, containers,
                rounds, minutes, cadvisorSamples, exporterSamples, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        gpuPods(pool, collector, nodes, containers);
        long expectedRows = (long) nodes * containers * 2 * minutes + (long) nodes * minutes;
        long t0 = System.nanoTime();
        double slowestRound = 0;
        for (int r = 0; r < rounds; r++) {
            long at = START.plusSeconds(30L * r).toEpochMilli();
            long roundStart = System.nanoTime();
            List<Future<?>> answers = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                int node = n;
                int round = r;
                URI kubelet = collector.resolve("/api/v1/ingest/cadvisor?node=node-" + node);
                URI exporter = collector.resolve("/api/v1/ingest/node-exporter?node=node-" + node);
                answers.add(pool.submit(() -> ingest.post(kubelet, cadvisor(node, containers, round, at))));
                answers.add(pool.submit(() -> ingest.post(exporter, nodeExporter(node, round, at))));
            }
            for (Future<?> f : answers) {
                f.get();
            }
            slowestRound = Math.max(slowestRound, (System.nanoTime() - roundStart) / 1e9);
        }
        double pushed = (System.nanoTime() - t0) / 1e9;
        long rows = awaitHostRows(db, expectedRows);
        double stored = (System.nanoTime() - t0) / 1e9;
        long samples = cadvisorSamples + exporterSamples;
        System.out.printf("collector answered every push after %.1f s (%,.0f samples/s; the slowest 30 s round of %,d"
                + " pages took %.1f s)%n", pushed, samples / pushed, 2 * nodes, slowestRound);
        System.out.printf("gpumeter host ingest: %,d samples in %.1f s = %,.0f samples/s, %,d host minutes stored"
                + " (%,.0f rows/s) — %.0f%% of a 30 s interval per round%n", samples, stored, samples / stored, rows,
                rows / stored, 100 * stored / rounds / 30);
        pool.shutdown();
        usageFloor(suite, db, collector, nodes);
    }

    /** The pods named GPU pods the way dcgm-exporter's Kubernetes mode names the pod on each card. */
    private void gpuPods(ExecutorService pool, URI collector, int nodes, int containers) throws Exception {
        List<Future<?>> answers = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            StringBuilder body = new StringBuilder();
            for (int c = 0; c < containers; c++) {
                body.append("DCGM_FI_DEV_GPU_UTIL{gpu=\"").append(c % 8).append("\",UUID=\"GPU-").append(n).append('-')
                        .append(c).append("\",namespace=\"bench\",pod=\"p-").append(n).append('-').append(c)
                        .append("\",container=\"main\"} 50 ").append(START.minusSeconds(3600).toEpochMilli()).append('\n');
            }
            URI uri = collector.resolve("/api/v1/ingest/dcgm?node=node-" + n);
            answers.add(pool.submit(() -> ingest.post(uri, body.toString())));
        }
        for (Future<?> f : answers) {
            f.get();
        }
    }

    /** One kubelet page: each pod's container, its cgroup and its sandbox, as a containerd kubelet prints them. */
    static String cadvisor(int node, int containers, int round, long at) {
        StringBuilder b = new StringBuilder(containers * 14 * 160);
        for (int c = 0; c < containers; c++) {
            String pod = "namespace=\"bench\",pod=\"p-" + node + "-" + c + "\"";
            String cid = "/kubepods/burstable/pod" + node + "-" + c;
            String ctr = "container=\"main\",id=\"" + cid + "/c\",image=\"img\",name=\"c\"," + pod;
            String cg = "container=\"\",id=\"" + cid + "\",image=\"\",name=\"\"," + pod;
            String sb = "container=\"\",id=\"" + cid + "/s\",image=\"pause\",name=\"s\"," + pod;
            double cpu = round * 30.0 * ((c % 4) + 1) / 4;
            counter(b, "container_cpu_usage_seconds_total", ctr + ",cpu=\"total\"", cpu, at);
            counter(b, "container_cpu_cfs_periods_total", ctr, round * 300, at);
            counter(b, "container_cpu_cfs_throttled_periods_total", ctr, round * 30 * (c % 3), at);
            b.append("container_spec_cpu_quota{").append(ctr).append("} 200000\n");
            b.append("container_spec_cpu_period{").append(ctr).append("} 100000\n");
            counter(b, "container_fs_reads_bytes_total", ctr + ",device=\"/dev/nvme0n1\"", round * 1.0e8, at);
            counter(b, "container_fs_writes_bytes_total", ctr + ",device=\"/dev/nvme0n1\"", round * 2.0e7, at);
            counter(b, "container_cpu_usage_seconds_total", cg + ",cpu=\"total\"", cpu + round, at);
            counter(b, "container_cpu_cfs_periods_total", cg, round * 300, at);
            counter(b, "container_cpu_cfs_throttled_periods_total", cg, round * 30 * (c % 3), at);
            b.append("container_spec_cpu_quota{").append(cg).append("} 200000\n");
            b.append("container_spec_cpu_period{").append(cg).append("} 100000\n");
            counter(b, "container_network_receive_bytes_total", sb + ",interface=\"eth0\"", round * 3.0e9, at);
            counter(b, "container_network_transmit_bytes_total", sb + ",interface=\"eth0\"", round * 1.0e8, at);
        }
        return b.toString();
    }

    /** One node-exporter page: 64 CPUs by mode, the pressure counters, eth0 and lo. */
    static String nodeExporter(int node, int round, long at) {
        StringBuilder b = new StringBuilder(CPUS * MODES.length * 60);
        for (int cpu = 0; cpu < CPUS; cpu++) {
            for (String mode : MODES) {
                counter(b, "node_cpu_seconds_total", "cpu=\"" + cpu + "\",mode=\"" + mode + "\"",
                        10_000 + round * (mode.equals("idle") ? 20.0 : 1.5), at);
            }
        }
        counter(b, "node_pressure_cpu_waiting_seconds_total", null, round * 2.0, at);
        counter(b, "node_pressure_io_stalled_seconds_total", null, round * (node % 10), at);
        counter(b, "node_pressure_memory_stalled_seconds_total", null, 0, at);
        counter(b, "node_network_receive_bytes_total", "device=\"eth0\"", round * 3.5e11, at);
        counter(b, "node_network_transmit_bytes_total", "device=\"eth0\"", round * 1.2e10, at);
        counter(b, "node_network_receive_drop_total", "device=\"eth0\"", round * 3, at);
        counter(b, "node_network_receive_bytes_total", "device=\"lo\"", round * 1e6, at);
        return b.toString();
    }

    private static void counter(StringBuilder b, String name, String labels, double value, long at) {
        b.append(name);
        if (labels != null) {
            b.append('{').append(labels).append('}');
        }
        b.append(' ').append(value).append(' ').append(at).append('\n');
    }

    private static long awaitHostRows(DatabaseConnection db, long expected) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             PreparedStatement count = c.prepareStatement("SELECT (SELECT count(*) FROM ledger.host_container_minute)"
                     + " + (SELECT count(*) FROM ledger.host_node_minute)")) {
            long counted = 0;
            while (System.nanoTime() < deadline) {
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    counted = rows.getLong(1);
                }
                if (counted >= expected) {
                    return counted;
                }
                Thread.sleep(100);
            }
            throw new IllegalStateException("after 15 minutes the ledger holds " + counted + " host minutes of " + expected);
        }
    }

    /** GPU usage through the same collector: 1 GPU per node-equivalent card, 10 fields, 60 one-second scrapes. */
    private void usageFloor(Suite suite, DatabaseConnection db, URI collector, int gpus) throws Exception {
        int seconds = 60;
        long samples = (long) gpus * FederatedScrape.FIELDS.length * seconds;
        Instant start = START.plus(Duration.ofDays(1));
        URI endpoint = collector.resolve("/api/v1/ingest/dcgm?node=bench");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        long t0 = System.nanoTime();
        List<Future<?>> answers = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            String body = FederatedScrape.scrape(gpus, start.plusSeconds(s));
            answers.add(pool.submit(() -> ingest.post(endpoint, body)));
        }
        for (Future<?> f : answers) {
            f.get();
        }
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             PreparedStatement count = c.prepareStatement("SELECT coalesce(sum(samples), 0) FROM ledger.usage_minute"
                     + " WHERE minute >= ? AND minute < ?")) {
            count.setObject(1, start.atOffset(ZoneOffset.UTC));
            count.setObject(2, start.plusSeconds(seconds + 60L).atOffset(ZoneOffset.UTC));
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            long counted = 0;
            while (counted < samples && System.nanoTime() < deadline) {
                try (ResultSet rows = count.executeQuery()) {
                    rows.next();
                    counted = rows.getLong(1);
                }
                Thread.sleep(100);
            }
            if (counted < samples) {
                throw new IllegalStateException("the usage rollups count " + counted + " of " + samples + " samples");
            }
        }
        double took = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        System.out.printf("beside it, GPU usage: %,d GPUs x %d fields x %d s = %,d samples in %.1f s = %,.0f samples/s"
                + " (collector parse + ledger minute rollups)%n", gpus, FederatedScrape.FIELDS.length, seconds, samples, took,
                samples / took);
    }
}
