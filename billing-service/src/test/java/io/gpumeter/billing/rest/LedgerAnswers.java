package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.StandIn;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the ledger answers billing's tests, by the window asked for: the figures each test works its bill out from.
 * {@link LedgerStandIn} serves them; each is checked against the ledger's own example of its read first.
 */
final class LedgerAnswers {

    private LedgerAnswers() {
    }

    static final String MARCH_FROM = "2026-03-01T00:00:00Z";
    static final String MARCH_TO = "2026-04-01T00:00:00Z";
    /** The first ten days of March 2026, for a month-to-date forecast. */
    static final String MARCH_11 = "2026-03-11T00:00:00Z";
    /** March 2026 between local midnights in Europe/Berlin (CET to CEST). */
    static final String BERLIN_MARCH_FROM = "2026-02-28T23:00:00Z";
    static final String BERLIN_MARCH_TO = "2026-03-31T22:00:00Z";
    /** Months whose gpu-hours request fails in a chosen way. */
    static final String ANSWERS_500 = "2030-01-01T00:00:00Z";
    static final String DROPS_CONNECTION = "2030-02-01T00:00:00Z";
    static final String ANSWERS_404 = "2030-03-01T00:00:00Z";
    static final String ANSWERS_LATE = "2030-04-01T00:00:00Z";

    static final String POLICY = "MIG 1g.10gb = 1/7 card, 3g.40gb = 3/7 card; vGPU = gpucores/100; "
            + "time-slice = 1/replicas";

    // Deliberately out of order, with three spellings of the H100 and two ways of saying "model unknown";
    // one aggregate carries no usedGpuHours at all (nothing measured).
    static final String BY_TENANT = """
            [
             {"key":"gamma","group":{"tenant":"gamma","model":"nvidia_h100_80gb_hbm3"},"allocatedGpuHours":2,
              "usedGpuHours":0.5,"idleGpuHours":1.5},
             {"key":"acme","group":{"tenant":"acme","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":12.345678901234,"usedGpuHours":3.1,"idleGpuHours":9.245678901234},
             {"key":"beta","group":{"tenant":"beta","model":null},"allocatedGpuHours":1.0},
             {"key":"gamma","group":{"tenant":"gamma","model":"NVIDIA-H100-80GB-HBM3"},"allocatedGpuHours":1,
              "usedGpuHours":0.25,"idleGpuHours":0.75},
             {"key":"acme","group":{"tenant":"acme","model":"NVIDIA L40S"},"allocatedGpuHours":3.5,
              "usedGpuHours":1.25,"idleGpuHours":2.25},
             {"key":"beta","group":{"tenant":"beta","model":"unknown"},"allocatedGpuHours":0.75,
              "usedGpuHours":0.75,"idleGpuHours":0}
            ]""";

    static final String BY_TEAM = """
            [
             {"key":"ml-platform","group":{"team":"ml-platform","model":"NVIDIA-H100-80GB-HBM3"},"allocatedGpuHours":1},
             {"key":"=1+1","group":{"team":"=1+1","model":"NVIDIA-H100-80GB-HBM3"},"allocatedGpuHours":2},
             {"key":"","group":{"team":null,"model":"NVIDIA-H100-80GB-HBM3"},"allocatedGpuHours":0.5},
             {"key":"@SUM(A1:A9)","group":{"team":"@SUM(A1:A9)","model":"NVIDIA L40S"},"allocatedGpuHours":1}
            ]""";

    /** March by tenant and team, for a one-tenant report grouped by team. */
    static final String BY_TENANT_TEAM = """
            [
             {"key":"acme/ml-platform","group":{"tenant":"acme","team":"ml-platform","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":1,"usedGpuHours":0.4},
             {"key":"beta/=1+1","group":{"tenant":"beta","team":"=1+1","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":2,"usedGpuHours":0.5}
            ]""";

    /** ISO week 2026-W10: Monday 2 March to Monday 9 March 2026, UTC. */
    static final String WEEK_FROM = "2026-03-02T00:00:00Z";
    static final String WEEK_TO = "2026-03-09T00:00:00Z";

    static final String WEEK_BY_TEAM = """
            [
             {"key":"vision","group":{"team":"vision","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":17.5,"usedGpuHours":11.2},
             {"key":"speech","group":{"team":"speech","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":1.25,"usedGpuHours":0},
             {"key":"vision","group":{"team":"vision","model":"NVIDIA L40S"},"allocatedGpuHours":2,"usedGpuHours":2}
            ]""";

    static final String WEEK_BY_TENANT_TEAM = """
            [
             {"key":"acme/vision","group":{"tenant":"acme","team":"vision","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":10.5,"usedGpuHours":4.2},
             {"key":"beta/vision","group":{"tenant":"beta","team":"vision","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":7,"usedGpuHours":7},
             {"key":"acme/speech","group":{"tenant":"acme","team":"speech","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":1.25,"usedGpuHours":0},
             {"key":"acme/vision","group":{"tenant":"acme","team":"vision","model":"NVIDIA L40S"},
              "allocatedGpuHours":2,"usedGpuHours":2}
            ]""";

    /** January 2027 cut on the 16th, where a dated rate card takes effect. */
    static final String JAN_FROM = "2027-01-01T00:00:00Z";
    static final String JAN_CHANGE = "2027-01-16T00:00:00Z";
    static final String JAN_TO = "2027-02-01T00:00:00Z";

    static final String JAN_BEFORE_CHANGE = """
            [{"key":"acme","group":{"tenant":"acme","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":100,"usedGpuHours":40}]""";

    static final String JAN_AFTER_CHANGE = """
            [{"key":"beta","group":{"tenant":"beta","model":"NVIDIA L40S"},"allocatedGpuHours":10,"usedGpuHours":0},
             {"key":"acme","group":{"tenant":"acme","model":"NVIDIA-H100-80GB-HBM3"},
              "allocatedGpuHours":50.123,"usedGpuHours":50.123}]""";

    /** October 2025, cut on the 16th where a dated rate card takes effect; the month the close tests freeze. */
    static final String OCT_FROM = "2025-10-01T00:00:00Z";
    static final String OCT_CHANGE = "2025-10-16T00:00:00Z";
    static final String OCT_TO = "2025-11-01T00:00:00Z";
    static final String FINE = "tenant,team,project,namespace,model";

    /** One aggregate of the ledger's GPU-hours: its group in the order asked, its allocated and used hours. */
    static Map<String, Object> row(Map<String, String> group, String allocated, String used) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("key", String.join("/", group.values()));
        row.put("group", group);
        row.put("allocatedGpuHours", new BigDecimal(allocated));
        row.put("usedGpuHours", new BigDecimal(used));
        return row;
    }

    private static Map<String, String> group(String... namesAndValues) {
        Map<String, String> group = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            group.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return group;
    }

    private static Map<String, Object> fine(String tenant, String team, String project, String namespace, String model,
                                            String allocated, String used) {
        return row(group("tenant", tenant, "team", team, "project", project, "namespace", namespace, "model", model),
                allocated, used);
    }

    static Map<String, Object> byTenant(String tenant, String model, String allocated, String used) {
        return row(group("tenant", tenant, "model", model), allocated, used);
    }

    /** Rows as the JSON array the ledger answers. */
    static String array(Object... rows) {
        return StandIn.text(List.of(rows));
    }

    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    static final String L40S = "NVIDIA L40S";

    /* October as billed: 1-16 October (acme vision H100 100 h / 40 used, acme speech L40S 20 / 5, beta research
     * H100 10 / 10), 16 October on (acme vision H100 50 / 50, beta research L40S 8 / 0). */
    static final String OCT_1_FINE = array(fine("acme", "vision", "p1", "ns-a", H100, "100", "40"),
            fine("acme", "speech", "p2", "ns-b", L40S, "20", "5"),
            fine("beta", "research", "p3", "ns-c", H100, "10", "10"));
    static final String OCT_2_FINE = array(fine("beta", "research", "p3", "ns-c", L40S, "8", "0"),
            fine("acme", "vision", "p1", "ns-a", H100, "50", "50"));
    static final String OCT_1_BY_TENANT = array(byTenant("acme", H100, "100", "40"),
            byTenant("acme", L40S, "20", "5"),
            byTenant("beta", H100, "10", "10"));
    static final String OCT_2_BY_TENANT = array(byTenant("beta", L40S, "8", "0"), byTenant("acme", H100, "50", "50"));

    /* October after late facts: beta's H100 grant was 9 h (9 used), not 10; gamma's 4.0625 h H100 grant (1.5 used)
     * before the 16th arrives; acme's H100 after the 16th was 56 h, not 50. */
    static final String OCT_1_FINE_CORRECTED = array(fine("acme", "vision", "p1", "ns-a", H100, "100", "40"),
            fine("acme", "speech", "p2", "ns-b", L40S, "20", "5"),
            fine("beta", "research", "p3", "ns-c", H100, "9", "9"),
            fine("gamma", "ops", "p4", "ns-d", H100, "4.0625", "1.5"));
    static final String OCT_2_FINE_CORRECTED = array(fine("beta", "research", "p3", "ns-c", L40S, "8", "0"),
            fine("acme", "vision", "p1", "ns-a", H100, "56", "50"));
    static final String OCT_1_BY_TENANT_CORRECTED = array(byTenant("acme", H100, "100", "40"),
            byTenant("acme", L40S, "20", "5"),
            byTenant("beta", H100, "9", "9"),
            byTenant("gamma", H100, "4.0625", "1.5"));
    static final String OCT_2_BY_TENANT_CORRECTED = array(byTenant("beta", L40S, "8", "0"),
            byTenant("acme", H100, "56", "50"));

    /*
     * June 2025, for energy: cut on the 16th, where the energy tests' second card (pricing energy per cluster) takes
     * effect. Before it the ledger is asked without the cluster, after it by cluster. Each answer is keyed by
     * "from/to/groupBy". Units' energy:
     *   1-16 June: acme H100 100 h (40 used) 70.4321 kWh; beta L40S 20 h (10 used) 8.25 kWh.
     *   16 June on: acme H100 in eu-1 50 h (50 used) 40 kWh, in lab 10 h (0 used) 2.5 kWh; beta L40S in lab 4 h (4 used)
     *   3.125 kWh.
     * Cards' idle energy (grouped by cluster): 1-16 June eu-1 30 kWh, lab 5 kWh; 16 June on eu-1 12 kWh, lab 6.4 kWh.
     * After /energy-corrections, acme's eu-1 energy after the 16th is 44 kWh instead of 40; nothing else changes.
     */
    static final String JUNE_FROM = "2025-06-01T00:00:00Z";
    static final String JUNE_CHANGE = "2025-06-16T00:00:00Z";
    static final String JUNE_TO = "2025-07-01T00:00:00Z";
    static final String FEB_2024 = "2024-02-01T00:00:00Z/2024-03-01T00:00:00Z/";

    private static Map<String, Object> energyRow(String tenant, String model, String cluster, String allocated,
                                                 String used, String kWh, boolean fine) {
        Map<String, String> group = group("tenant", tenant);
        if (fine) {
            group.putAll(group("team", "t-" + tenant, "project", "p-" + tenant, "namespace", "ns-" + tenant));
        }
        group.put("model", model);
        if (cluster != null) {
            group.put("cluster", cluster);
        }
        Map<String, Object> row = row(group, allocated, used);
        row.put("key", tenant);
        row.put("energyKWh", new BigDecimal(kWh));
        row.put("energyCoverage", BigDecimal.ONE);
        row.put("energySource", "ENERGY_COUNTER");
        return row;
    }

    private static Map<String, Object> idleRow(String cluster, String allocated, String kWh, String idleKWh) {
        Map<String, Object> row = row(group("cluster", cluster), allocated, "0");
        row.put("energyKWh", new BigDecimal(kWh));
        row.put("idleEnergyKWh", new BigDecimal(idleKWh));
        return row;
    }

    /** June 2025's answers by "from/to/groupBy", as first told and after the energy correction. */
    static Map<String, String> june(boolean corrected) {
        Map<String, String> answers = new HashMap<>();
        String first = JUNE_FROM + "/" + JUNE_CHANGE + "/";
        String second = JUNE_CHANGE + "/" + JUNE_TO + "/";
        String acmeEu = corrected ? "44" : "40";
        for (boolean fine : new boolean[]{false, true}) {
            String dims = fine ? FINE : "tenant,model";
            answers.put(first + dims, array(energyRow("acme", H100, null, "100", "40", "70.4321", fine),
                    energyRow("beta", L40S, null, "20", "10", "8.25", fine)));
            answers.put(second + dims + ",cluster", array(energyRow("acme", H100, "eu-1", "50", "50", acmeEu, fine),
                    energyRow("acme", H100, "lab", "10", "0", "2.5", fine),
                    energyRow("beta", L40S, "lab", "4", "4", "3.125", fine)));
        }
        answers.put(first + "cluster", array(idleRow("eu-1", "150", "70.4321", "30"), idleRow("lab", "20", "8.25", "5")));
        answers.put(second + "cluster", array(idleRow("eu-1", "50", acmeEu, "12"), idleRow("lab", "14", "5.625", "6.4")));
        // February 2024, a month closed before energy was recorded: its hours as billed, now with energy.
        answers.put(FEB_2024 + FINE, array(energyRow("acme", H100, null, "10", "4", "9", true)));
        return answers;
    }

    private static Map<String, Object> capacity(String model, String cardHours) {
        return Map.of("key", model, "group", Map.of("model", model), "cardHours", new BigDecimal(cardHours));
    }

    /** Card-hours per model the fleet could supply, by window "from/to"; other windows have none. */
    static final Map<String, String> CAPACITY = new HashMap<>(Map.of(
            MARCH_FROM + "/" + MARCH_TO, array(capacity(H100, "40"), capacity("NVIDIA-L40S", "10")),
            WEEK_FROM + "/" + WEEK_TO, array(capacity(H100, "168")),
            OCT_FROM + "/" + OCT_CHANGE, array(capacity(H100, "200")),
            OCT_CHANGE + "/" + OCT_TO, array(capacity("NVIDIA-L40S", "20"), capacity(H100, "100")),
            JUNE_FROM + "/" + JUNE_CHANGE, array(capacity(H100, "300"), capacity("NVIDIA-L40S", "30")),
            JUNE_CHANGE + "/" + JUNE_TO, array(capacity(H100, "150"), capacity("NVIDIA-L40S", "10"))));

    /*
     * March 2026 by tenant, model and UTC day, for the cost series: acme 10 H100 hours (4 used) and 2.5 L40S hours
     * (none used) and beta 1 H100 hour (all used) on the 1st; acme 0.125 H100 hours (all used) on the 2nd; acme 3 H100
     * hours (1 used) on the 9th. By ISO week the same hours fall in 2026-W09 (the 1st, a Sunday), W10 and W11. On the
     * 1st acme's units drew 7.5 kWh on the H100 and 0.75 kWh on the L40S.
     */
    static final String SERIES_BY_DAY = array(withEnergy(bucketed("acme", H100, "day", "2026-03-01", "10", "4"), "7.5"),
            withEnergy(bucketed("acme", L40S, "day", "2026-03-01", "2.5", "0"), "0.75"),
            bucketed("beta", H100, "day", "2026-03-01", "1", "1"),
            bucketed("acme", H100, "day", "2026-03-02", "0.125", "0.125"),
            bucketed("acme", H100, "day", "2026-03-09", "3", "1"));
    /** The same days when a card takes effect on 5 March: one read for each card's stretch of the month. */
    static final String MARCH_5 = "2026-03-05T00:00:00Z";
    static final String SERIES_BEFORE_5 = array(withEnergy(bucketed("acme", H100, "day", "2026-03-01", "10", "4"), "7.5"),
            withEnergy(bucketed("acme", L40S, "day", "2026-03-01", "2.5", "0"), "0.75"),
            bucketed("beta", H100, "day", "2026-03-01", "1", "1"),
            bucketed("acme", H100, "day", "2026-03-02", "0.125", "0.125"));
    static final String SERIES_FROM_5 = array(bucketed("acme", H100, "day", "2026-03-09", "3", "1"));
    static final String SERIES_BY_WEEK = array(bucketed("acme", H100, "week", "2026-W09", "10", "4"),
            bucketed("acme", L40S, "week", "2026-W09", "2.5", "0"),
            bucketed("beta", H100, "week", "2026-W09", "1", "1"),
            bucketed("acme", H100, "week", "2026-W10", "0.125", "0.125"),
            bucketed("acme", H100, "week", "2026-W11", "3", "1"));

    /** An aggregate with the energy its units drew. */
    private static Map<String, Object> withEnergy(Map<String, Object> aggregate, String kWh) {
        aggregate.put("energyKWh", new BigDecimal(kWh));
        return aggregate;
    }

    private static Map<String, Object> bucketed(String tenant, String model, String unit, String label, String allocated,
                                                String used) {
        return row(group("tenant", tenant, "model", model, unit, label), allocated, used);
    }

    /*
     * Daily costs for the anomaly check of 15 November 2026 (UTC days), by tenant and model. On 1-14 November acme
     * holds 10 and 12 H100 hours on alternate days and gamma 15 every day; on the 15th acme holds 20, gamma 15,
     * beta 12 L40S hours and delta, new, 30 H100 hours.
     */
    static final Map<String, String> ANOMALY_DAYS = new HashMap<>();

    static {
        for (int d = 1; d <= 14; d++) {
            ANOMALY_DAYS.put(String.format("2026-11-%02dT00:00:00Z", d),
                    array(byTenant("acme", H100, d % 2 == 1 ? "10" : "12", "1"), byTenant("gamma", H100, "15", "15")));
        }
        ANOMALY_DAYS.put("2026-11-15T00:00:00Z", array(byTenant("acme", H100, "20", "1"),
                byTenant("gamma", H100, "15", "15"),
                byTenant("beta", L40S, "12", "0"),
                byTenant("delta", H100, "30", "0")));
    }
}
