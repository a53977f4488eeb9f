package io.gpumeter.console;

/**
 * The ledger's {@code GET /api/v1/idle} over 2026-11-16 to 2026-11-23 as the stand-in answers it per grouping, shaped
 * as the ledger's IdleReport serialises: each row's split in card-seconds, its allocated-not-busy hours and those
 * hours by the host's cause ({@code allocatedNotBusyBy}), its host coverage, and the thresholds beside the rows.
 * <pre>
 * acme-ml/train-7 (acme) on gpu-a: busy 72,000 s (20 h), not busy 36,000 s (10 h: CPU 6.5, I/O 2.25, network 0,
 *                 unexplained 1.25), host data for 90 % of it; gpu-a also empty 36,000 s and queued 7,200 s
 * globex-lab/loader-0 (globex) on gpu-b: busy 3,600 s, not busy 18,000 s (5 h: I/O 4, network 0.5, unexplained 0.5),
 *                 unmeasured 1,800 s, host data for all of it
 * </pre>
 */
final class IdleStandIn {

    static final String WINDOW = "from=2026-11-16T00%3A00%3A00Z&to=2026-11-23T00%3A00%3A00Z";

    private static final String THRESHOLDS = """
            "causeThresholds":{"cpuLimitShare":0.9,"cfsThrottledShare":0.25,"ioPressureShare":0.1,"diskBytesPerSecond":104857600,
             "networkShare":0.5,"networkMinBytesPerSecond":1048576,"hostNetworkTolerance":0.01,"hostNetworkDropsPerSecond":1}""";

    private static final String ROW = """
            {"key":"%s","group":%s,
             "seconds":{"empty":%s,"queuedWhileEmpty":%s,"allocatedNotBusy":%s,"busy":%s,"allocatedUnmeasured":%s,"total":%s},
             "shares":{"empty":0,"queuedWhileEmpty":0,"allocatedNotBusy":0,"busy":0,"allocatedUnmeasured":0,"total":1},
             "allocatedNotBusyHours":%s,"allocatedNotBusyBy":{"CPU_SATURATED":%s,"IO_WAIT":%s,"NETWORK":%s,"UNEXPLAINED":%s},
             "hostCoverage":%s,"activityMetrics":"SM_ACTIVE","energyKWh":0,"idleEnergyKWh":0}""";

    private IdleStandIn() {
    }

    static void install() {
        StandIn.reply(Backend.LEDGER, "/api/v1/idle?" + WINDOW + "&groupBy=tenant", false, StandIn.Reply.json(report("tenant",
                unallocated("{\"tenant\":\"(unallocated)\"}"),
                trainSeven("acme", "{\"tenant\":\"acme\"}"),
                loader("globex", "{\"tenant\":\"globex\"}"))));
        StandIn.reply(Backend.LEDGER, "/api/v1/idle?" + WINDOW + "&groupBy=pod", false, StandIn.Reply.json(report("pod",
                unallocated("{\"pod\":\"(unallocated)\"}"),
                trainSeven("lab/acme-ml/train-7", "{\"cluster\":\"lab\",\"namespace\":\"acme-ml\",\"pod\":\"train-7\",\"tenant\":\"acme\"}"),
                loader("lab/globex-lab/loader-0", "{\"cluster\":\"lab\",\"namespace\":\"globex-lab\",\"pod\":\"loader-0\",\"tenant\":\"globex\"}"))));
        StandIn.reply(Backend.LEDGER, "/api/v1/idle?" + WINDOW + "&groupBy=node", false, StandIn.Reply.json(report("node",
                ROW.formatted("lab/gpu-a", "{\"cluster\":\"lab\",\"node\":\"gpu-a\"}", 36000, 7200, 36000, 72000, 0, 151200,
                        10, 6.5, 2.25, 0, 1.25, 0.9),
                loader("lab/gpu-b", "{\"cluster\":\"lab\",\"node\":\"gpu-b\"}"))));
    }

    private static String report(String groupBy, String... rows) {
        return "{\"from\":\"2026-11-16T00:00:00Z\",\"to\":\"2026-11-23T00:00:00Z\",\"groupBy\":\"" + groupBy
                + "\",\"cluster\":null,\"busyThreshold\":0.1," + THRESHOLDS + ",\"rows\":[" + String.join(",", rows) + "]}";
    }

    private static String unallocated(String group) {
        return ROW.formatted("(unallocated)", group, 36000, 7200, 0, 0, 0, 43200, 0, 0, 0, 0, 0, "null");
    }

    private static String trainSeven(String key, String group) {
        return ROW.formatted(key, group, 0, 0, 36000, 72000, 0, 108000, 10, 6.5, 2.25, 0, 1.25, 0.9);
    }

    private static String loader(String key, String group) {
        return ROW.formatted(key, group, 0, 0, 18000, 3600, 1800, 23400, 5, 0, 4, 0.5, 0.5, 1);
    }
}
