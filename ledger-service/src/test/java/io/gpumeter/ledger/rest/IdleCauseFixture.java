package io.gpumeter.ledger.rest;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * An hour, [12:00, 13:00) of 2026-09-14 in cluster {@code idlecause}, delivered through the ledger's own intakes (facts,
 * usage, host minutes): six pods, each holding a whole card of its own from 12:00 on (HAMi, 100 % of the cores and all
 * the memory), SM_ACTIVE read every minute. Minute m is 12:mm; "m0-m1" is minutes m0 to m1 inclusive.
 * <pre>
 * tc/train-cpu  node hn1, GPU-K1, SM 0.02 (not busy). Container main, limit 2 cores, 600 CFS periods a minute:
 *               0-39 throttled 300 (0.5), 30 CPU s; 40-49 not throttled, 30 CPU s; 50-59 not throttled, 114 CPU s
 *               (1.9 cores, at 0.95 of its limit). Node hn1: I/O "full" stall 12 s a minute (0.2) in 30-49, else 0.
 * tc/serve-busy node hn1, GPU-K6, SM 0.8 (busy). Container main throttled 300 of 600 all hour.
 * tc/loader-io  node hn2, GPU-K2, SM 0.03. Container loader 6 CPU s of a 4-core limit, never throttled; it reads
 *               150 MiB/s (9,437,184,000 bytes a minute) in 45-59. Node hn2: I/O stall 18 s a minute (0.3) in 0-29.
 * td/fetch-net  node hn3, GPU-K3, SM 0.05. Pod row: 0-29 540 MB in + 60 MB out a minute (10 MB/s), 30-59 60 MB in
 *               (1 MB/s). Node hn3: rows covering 30 s of each minute, 330 MB in + 30 MB out (12 MB/s).
 * td/quiet      node hn4, GPU-K4, SM 0. Container main (6 CPU s, limit 2, not throttled) and pod row (1 MB a
 *               minute) in 0-29 only; node hn4 (100 MB a minute, no stall) in 0-19 only; nothing after.
 * td/hostnet    node hn5, GPU-K5, SM 0.01; on the host's network: pod row 300,000,000 bytes in a minute, node hn5
 *               301,000,000 (within 1 %); node drops 0 in 0-39, 150 a minute (2.5/s) in 40-59.
 * </pre>
 * With the default thresholds (0.9 of the limit, 25 % throttled, 0.1 I/O stall, 100 MiB/s of disk, half the node's
 * network and 1 MiB/s, 1 % host-network tolerance, 1 drop/s), seconds not busy by cause:
 * <pre>
 * train-cpu   CPU 0-39 (30-39 also I/O: CPU first) + 50-59 = 3000, I/O 40-49 = 600; coverage 1
 * serve-busy  busy 3600: nothing not busy, so nothing by cause
 * loader-io   I/O 0-29 (node) + 45-59 (disk) = 2700, unexplained 30-44 = 900; coverage 1
 * fetch-net   network 0-29 (10/12 of the node) = 1800, unexplained 1800 (1/12); coverage 1
 * quiet       unexplained 3600; coverage 0-19 (pod and node both) = 1200 / 3600 = 0.3333
 * hostnet     network 40-59 (drops) = 1200, unexplained 2400 (its share is the node's own traffic); coverage 1
 * tenant tc   not busy 7200: CPU 3000, I/O 3300, unexplained 900; tenant td 10800: network 3000, unexplained 7800,
 *             coverage (3600 + 1200 + 3600) / 10800 = 0.7778
 * </pre>
 */
final class IdleCauseFixture {

    static final String CLUSTER = "idlecause";
    private static final String DAY = "2026-09-14T";

    private IdleCauseFixture() {
    }

    /** Delivers the hour; every intake stores a delivery once, so loading into a database that has it changes nothing. */
    static void load() {
        String facts = "{\"cluster\":\"" + CLUSTER + "\",\"namespaces\":[" + ns("tc") + "," + ns("td") + "],\"nodes\":["
                + String.join(",", node("hn1", "GPU-K1", "GPU-K6"), node("hn2", "GPU-K2"), node("hn3", "GPU-K3"),
                node("hn4", "GPU-K4"), node("hn5", "GPU-K5"))
                + "],\"pods\":[" + String.join(",", pod("tc", "train-cpu", "hn1", "GPU-K1"),
                pod("tc", "serve-busy", "hn1", "GPU-K6"), pod("tc", "loader-io", "hn2", "GPU-K2"),
                pod("td", "fetch-net", "hn3", "GPU-K3"), pod("td", "quiet", "hn4", "GPU-K4"),
                pod("td", "hostnet", "hn5", "GPU-K5")) + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);

        List<String> samples = new ArrayList<>();
        activity(samples, "GPU-K1", 0.02);
        activity(samples, "GPU-K6", 0.8);
        activity(samples, "GPU-K2", 0.03);
        activity(samples, "GPU-K3", 0.05);
        activity(samples, "GPU-K4", 0.0);
        activity(samples, "GPU-K5", 0.01);
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);

        List<String> containers = new ArrayList<>();
        List<String> nodes = new ArrayList<>();
        for (int m = 0; m < 60; m++) {
            containers.add(cgroup("hn1", "tc", "train-cpu", "main", m, 60_000, m < 50 ? 30 : 114, 2, 600, m < 40 ? 300 : 0, null, null, null));
            containers.add(cgroup("hn1", "tc", "serve-busy", "main", m, 60_000, 60, 2, 600, 300, null, null, null));
            nodes.add(node("hn1", m, 60_000, m >= 30 && m < 50 ? 12.0 : 0.0, 1e6, 0.0));
            containers.add(cgroup("hn2", "tc", "loader-io", "loader", m, 60_000, 6, 4, 600, 0, m >= 45 ? 9_437_184_000.0 : 0.0, null, null));
            nodes.add(node("hn2", m, 60_000, m < 30 ? 18.0 : 0.0, 1e6, 0.0));
            containers.add(cgroup("hn3", "td", "fetch-net", "", m, 60_000, null, null, null, null, null,
                    m < 30 ? 540e6 : 60e6, m < 30 ? 60e6 : 0.0));
            nodes.add(nodeNet("hn3", m, 30_000, 330e6, 30e6, 0.0));
            if (m < 30) {
                containers.add(cgroup("hn4", "td", "quiet", "main", m, 60_000, 6, 2, 600, 0, null, null, null));
                containers.add(cgroup("hn4", "td", "quiet", "", m, 60_000, null, null, null, null, null, 1e6, 0.0));
            }
            if (m < 20) {
                nodes.add(node("hn4", m, 60_000, 0.0, 100e6, 0.0));
            }
            containers.add(cgroup("hn5", "td", "hostnet", "main", m, 60_000, 6, 2, 600, 0, null, null, null));
            containers.add(cgroup("hn5", "td", "hostnet", "", m, 60_000, null, null, null, null, null, 300e6, 0.0));
            nodes.add(nodeNet("hn5", m, 60_000, 301e6, 0.0, m < 40 ? 0.0 : 150.0));
        }
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\",\"containers\":[" + String.join(",", containers)
                        + "],\"nodes\":[" + String.join(",", nodes) + "]}")
                .post("/api/v1/host/minutes").then().statusCode(200);
    }

    static JsonPath split(String groupBy) {
        return new JsonPath(splitText(groupBy)).using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static String splitText(String groupBy) {
        return given().queryParam("from", DAY + "12:00:00Z").queryParam("to", DAY + "13:00:00Z")
                .queryParam("groupBy", groupBy).queryParam("cluster", CLUSTER).get("/api/v1/idle")
                .then().statusCode(200).extract().asString();
    }

    /**
     * Asserts a row's allocated-not-busy hours by cause (CPU_SATURATED, IO_WAIT, NETWORK, UNEXPLAINED), that they add up
     * to its allocated-not-busy hours and seconds, and its host coverage (null for none).
     */
    static void assertCauses(JsonPath json, String key, String cpu, String io, String network, String unexplained,
                             String coverage) {
        String row = "rows.find { it.key == '" + key + "' }.";
        String[] names = {"CPU_SATURATED", "IO_WAIT", "NETWORK", "UNEXPLAINED"};
        String[] expected = {cpu, io, network, unexplained};
        BigDecimal sum = BigDecimal.ZERO;
        for (int i = 0; i < names.length; i++) {
            BigDecimal actual = decimal(json, row + "allocatedNotBusyBy." + names[i]);
            assertEquals(0, new BigDecimal(expected[i]).compareTo(actual), key + " " + names[i] + ": got " + actual);
            sum = sum.add(actual);
        }
        BigDecimal hours = decimal(json, row + "allocatedNotBusyHours");
        assertEquals(0, sum.compareTo(hours), key + ": the causes add up to " + sum + ", not " + hours);
        BigDecimal seconds = decimal(json, row + "seconds.allocatedNotBusy");
        assertEquals(0, hours.compareTo(seconds.divide(BigDecimal.valueOf(3600), 6, java.math.RoundingMode.HALF_EVEN)),
                key + ": " + hours + " h against " + seconds + " s");
        if (coverage == null) {
            assertNull(json.get(row + "hostCoverage"), key + " coverage");
        } else {
            BigDecimal actual = decimal(json, row + "hostCoverage");
            assertEquals(0, new BigDecimal(coverage).compareTo(actual), key + " coverage: got " + actual);
        }
    }

    private static BigDecimal decimal(JsonPath json, String path) {
        return new BigDecimal(json.getString(path));
    }

    private static String ns(String name) {
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-09-01T00:00:00Z\","
                + "\"labels\":{\"gpumeter.io/tenant\":\"" + name + "\"}}";
    }

    private static String node(String name, String... gpus) {
        List<String> cards = new ArrayList<>();
        for (String uuid : gpus) {
            cards.add("{\"uuid\":\"" + uuid + "\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":10}");
        }
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-09-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},\"gpus\":[" + String.join(",", cards) + "]}";
    }

    /** A pod created 11:50 and scheduled at 12:00 onto its node, granted its card whole by HAMi, still running. */
    private static String pod(String ns, String name, String node, String gpu) {
        return "{\"uid\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"name\":\"" + name + "\",\"resourceVersion\":\"2\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"" + DAY + "12:00:00Z\",\"createdAt\":\"" + DAY + "11:50:00Z\","
                + "\"scheduledAt\":\"" + DAY + "12:00:00Z\",\"nodeName\":\"" + node + "\",\"phase\":\"Running\","
                + "\"gpuResources\":{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":81920,\"nvidia.com/gpucores\":100},"
                + "\"vgpus\":[{\"container\":0,\"uuid\":\"" + gpu + "\",\"type\":\"NVIDIA\",\"memoryMib\":81920,\"cores\":100}],"
                + "\"hamiBindPhase\":\"success\",\"hamiNode\":\"" + node + "\"}";
    }

    private static void activity(List<String> out, String gpu, double value) {
        IntFunction<String> at = m -> DAY + "12:" + String.format("%02d", m) + ":30Z";
        for (int m = 0; m < 60; m++) {
            out.add("{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"SM_ACTIVE\",\"value\":" + value
                    + ",\"at\":\"" + at.apply(m) + "\"}");
        }
    }

    private static String minute(int m) {
        return DAY + "12:" + String.format("%02d", m) + ":00Z";
    }

    private static String cgroup(String node, String ns, String pod, String container, int m, int coveredMs, Number cpu,
                                 Number limit, Number periods, Number throttled, Double fsRead, Double netIn, Double netOut) {
        return "{\"node\":\"" + node + "\",\"namespace\":\"" + ns + "\",\"pod\":\"" + pod + "\",\"container\":\"" + container
                + "\",\"minute\":\"" + minute(m) + "\",\"coveredMs\":" + coveredMs + ",\"samples\":3,\"cpuSeconds\":" + cpu
                + ",\"cpuLimitCores\":" + limit + ",\"cfsPeriods\":" + periods + ",\"cfsThrottledPeriods\":" + throttled
                + ",\"fsReadBytes\":" + fsRead + ",\"fsWriteBytes\":" + (fsRead == null ? null : 0.0)
                + ",\"netReceiveBytes\":" + netIn + ",\"netTransmitBytes\":" + netOut + "}";
    }

    private static String node(String node, int m, int coveredMs, double ioStalled, double netIn, double drops) {
        return "{\"node\":\"" + node + "\",\"minute\":\"" + minute(m) + "\",\"coveredMs\":" + coveredMs
                + ",\"samples\":3,\"cpus\":64,\"ioPressureStalledSeconds\":" + ioStalled + ",\"netReceiveBytes\":" + netIn
                + ",\"netTransmitBytes\":0,\"netReceiveDrops\":" + drops + ",\"netTransmitDrops\":0}";
    }

    private static String nodeNet(String node, int m, int coveredMs, double netIn, double netOut, double drops) {
        return "{\"node\":\"" + node + "\",\"minute\":\"" + minute(m) + "\",\"coveredMs\":" + coveredMs
                + ",\"samples\":2,\"cpus\":64,\"ioPressureStalledSeconds\":0,\"netReceiveBytes\":" + netIn
                + ",\"netTransmitBytes\":" + netOut + ",\"netReceiveDrops\":" + drops + ",\"netTransmitDrops\":0}";
    }
}
