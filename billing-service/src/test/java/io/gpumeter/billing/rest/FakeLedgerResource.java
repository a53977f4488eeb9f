package io.gpumeter.billing.rest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in ledger-service on a free port, answering fixed JSON; the requested month selects the behaviour.
 */
public class FakeLedgerResource implements QuarkusTestResourceLifecycleManager {

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

    private static String fine(String tenant, String team, String project, String namespace, String model,
                               String allocated, String used) {
        return "{\"key\":\"" + tenant + "/" + team + "/" + project + "/" + namespace + "/" + model + "\","
                + "\"group\":{\"tenant\":\"" + tenant + "\",\"team\":\"" + team + "\",\"project\":\"" + project
                + "\",\"namespace\":\"" + namespace + "\",\"model\":\"" + model + "\"},"
                + "\"allocatedGpuHours\":" + allocated + ",\"usedGpuHours\":" + used + "}";
    }

    private static String byTenant(String tenant, String model, String allocated, String used) {
        return "{\"key\":\"" + tenant + "/" + model + "\",\"group\":{\"tenant\":\"" + tenant + "\",\"model\":\""
                + model + "\"},\"allocatedGpuHours\":" + allocated + ",\"usedGpuHours\":" + used + "}";
    }

    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    static final String L40S = "NVIDIA L40S";

    /* October as billed: 1-16 October (acme vision H100 100 h / 40 used, acme speech L40S 20 / 5, beta research
     * H100 10 / 10), 16 October on (acme vision H100 50 / 50, beta research L40S 8 / 0). */
    static final String OCT_1_FINE = "[" + fine("acme", "vision", "p1", "ns-a", H100, "100", "40") + ","
            + fine("acme", "speech", "p2", "ns-b", L40S, "20", "5") + ","
            + fine("beta", "research", "p3", "ns-c", H100, "10", "10") + "]";
    static final String OCT_2_FINE = "[" + fine("beta", "research", "p3", "ns-c", L40S, "8", "0") + ","
            + fine("acme", "vision", "p1", "ns-a", H100, "50", "50") + "]";
    static final String OCT_1_BY_TENANT = "[" + byTenant("acme", H100, "100", "40") + ","
            + byTenant("acme", L40S, "20", "5") + "," + byTenant("beta", H100, "10", "10") + "]";
    static final String OCT_2_BY_TENANT = "[" + byTenant("beta", L40S, "8", "0") + ","
            + byTenant("acme", H100, "50", "50") + "]";

    /* October after late facts: beta's H100 grant was 9 h (9 used), not 10; gamma's 4.0625 h H100 grant (1.5 used)
     * before the 16th arrives; acme's H100 after the 16th was 56 h, not 50. */
    static final String OCT_1_FINE_CORRECTED = "[" + fine("acme", "vision", "p1", "ns-a", H100, "100", "40") + ","
            + fine("acme", "speech", "p2", "ns-b", L40S, "20", "5") + ","
            + fine("beta", "research", "p3", "ns-c", H100, "9", "9") + ","
            + fine("gamma", "ops", "p4", "ns-d", H100, "4.0625", "1.5") + "]";
    static final String OCT_2_FINE_CORRECTED = "[" + fine("beta", "research", "p3", "ns-c", L40S, "8", "0") + ","
            + fine("acme", "vision", "p1", "ns-a", H100, "56", "50") + "]";
    static final String OCT_1_BY_TENANT_CORRECTED = "[" + byTenant("acme", H100, "100", "40") + ","
            + byTenant("acme", L40S, "20", "5") + "," + byTenant("beta", H100, "9", "9") + ","
            + byTenant("gamma", H100, "4.0625", "1.5") + "]";
    static final String OCT_2_BY_TENANT_CORRECTED = "[" + byTenant("beta", L40S, "8", "0") + ","
            + byTenant("acme", H100, "56", "50") + "]";

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

    private static String energyRow(String tenant, String model, String cluster, String allocated, String used,
                                    String kWh, boolean fine) {
        String dims = "\"tenant\":\"" + tenant + "\"" + (fine ? ",\"team\":\"t-" + tenant + "\",\"project\":\"p-"
                + tenant + "\",\"namespace\":\"ns-" + tenant + "\"" : "") + ",\"model\":\"" + model + "\""
                + (cluster == null ? "" : ",\"cluster\":\"" + cluster + "\"");
        return "{\"key\":\"" + tenant + "\",\"group\":{" + dims + "},\"allocatedGpuHours\":" + allocated
                + ",\"usedGpuHours\":" + used + ",\"energyKWh\":" + kWh + ",\"energyCoverage\":1,"
                + "\"energySource\":\"ENERGY_COUNTER\"}";
    }

    private static String idleRow(String cluster, String allocated, String kWh, String idleKWh) {
        return "{\"key\":\"" + cluster + "\",\"group\":{\"cluster\":\"" + cluster + "\"},\"allocatedGpuHours\":"
                + allocated + ",\"usedGpuHours\":0,\"energyKWh\":" + kWh + ",\"idleEnergyKWh\":" + idleKWh + "}";
    }

    /** June 2025's answers by "from/to/groupBy", as first told and after the energy correction. */
    static Map<String, String> june(boolean corrected) {
        Map<String, String> answers = new HashMap<>();
        String first = JUNE_FROM + "/" + JUNE_CHANGE + "/";
        String second = JUNE_CHANGE + "/" + JUNE_TO + "/";
        String acmeEu = corrected ? "44" : "40";
        for (boolean fine : new boolean[]{false, true}) {
            String dims = fine ? FINE : "tenant,model";
            answers.put(first + dims, "[" + energyRow("acme", H100, null, "100", "40", "70.4321", fine) + ","
                    + energyRow("beta", L40S, null, "20", "10", "8.25", fine) + "]");
            answers.put(second + dims + ",cluster", "[" + energyRow("acme", H100, "eu-1", "50", "50", acmeEu, fine) + ","
                    + energyRow("acme", H100, "lab", "10", "0", "2.5", fine) + ","
                    + energyRow("beta", L40S, "lab", "4", "4", "3.125", fine) + "]");
        }
        answers.put(first + "cluster", "[" + idleRow("eu-1", "150", "70.4321", "30") + ","
                + idleRow("lab", "20", "8.25", "5") + "]");
        answers.put(second + "cluster", "[" + idleRow("eu-1", "50", acmeEu, "12") + ","
                + idleRow("lab", "14", "5.625", "6.4") + "]");
        // February 2024, a month closed before energy was recorded: its hours as billed, now with energy.
        answers.put(FEB_2024 + FINE, "[" + energyRow("acme", H100, null, "10", "4", "9", true) + "]");
        return answers;
    }

    private static String capacity(String model, String cardHours) {
        return "{\"key\":\"" + model + "\",\"group\":{\"model\":\"" + model + "\"},\"cardHours\":" + cardHours + "}";
    }

    /** Card-hours per model the fleet could supply, by window "from/to"; other windows have none. */
    static final Map<String, String> CAPACITY = new HashMap<>(Map.of(
            MARCH_FROM + "/" + MARCH_TO, "[" + capacity(H100, "40") + "," + capacity("NVIDIA-L40S", "10") + "]",
            WEEK_FROM + "/" + WEEK_TO, "[" + capacity(H100, "168") + "]",
            OCT_FROM + "/" + OCT_CHANGE, "[" + capacity(H100, "200") + "]",
            OCT_CHANGE + "/" + OCT_TO, "[" + capacity("NVIDIA-L40S", "20") + "," + capacity(H100, "100") + "]",
            JUNE_FROM + "/" + JUNE_CHANGE, "[" + capacity(H100, "300") + "," + capacity("NVIDIA-L40S", "30") + "]",
            JUNE_CHANGE + "/" + JUNE_TO, "[" + capacity(H100, "150") + "," + capacity("NVIDIA-L40S", "10") + "]"));

    /*
     * March 2026 by tenant, model and UTC day, for the cost series: acme 10 H100 hours (4 used) and 2.5 L40S hours
     * (none used) and beta 1 H100 hour (all used) on the 1st; acme 0.125 H100 hours (all used) on the 2nd; acme 3 H100
     * hours (1 used) on the 9th. By ISO week the same hours fall in 2026-W09 (the 1st, a Sunday), W10 and W11. On the
     * 1st acme's units drew 7.5 kWh on the H100 and 0.75 kWh on the L40S.
     */
    static final String SERIES_BY_DAY = "[" + withEnergy(bucketed("acme", H100, "day", "2026-03-01", "10", "4"), "7.5") + ","
            + withEnergy(bucketed("acme", L40S, "day", "2026-03-01", "2.5", "0"), "0.75") + "," + bucketed("beta", H100, "day", "2026-03-01", "1", "1") + ","
            + bucketed("acme", H100, "day", "2026-03-02", "0.125", "0.125") + ","
            + bucketed("acme", H100, "day", "2026-03-09", "3", "1") + "]";
    static final String SERIES_BY_WEEK = "[" + bucketed("acme", H100, "week", "2026-W09", "10", "4") + ","
            + bucketed("acme", L40S, "week", "2026-W09", "2.5", "0") + "," + bucketed("beta", H100, "week", "2026-W09", "1", "1") + ","
            + bucketed("acme", H100, "week", "2026-W10", "0.125", "0.125") + ","
            + bucketed("acme", H100, "week", "2026-W11", "3", "1") + "]";

    /** An aggregate with the energy its units drew. */
    private static String withEnergy(String aggregate, String kWh) {
        return aggregate.substring(0, aggregate.length() - 1) + ",\"energyKWh\":" + kWh + "}";
    }

    private static String bucketed(String tenant, String model, String unit, String label, String allocated, String used) {
        return "{\"key\":\"" + tenant + "/" + model + "/" + label + "\",\"group\":{\"tenant\":\"" + tenant
                + "\",\"model\":\"" + model + "\",\"" + unit + "\":\"" + label + "\"},\"allocatedGpuHours\":" + allocated
                + ",\"usedGpuHours\":" + used + "}";
    }

    /*
     * Daily costs for the anomaly check of 15 November 2026 (UTC days), by tenant and model. On 1-14 November acme
     * holds 10 and 12 H100 hours on alternate days and gamma 15 every day; on the 15th acme holds 20, gamma 15,
     * beta 12 L40S hours and delta, new, 30 H100 hours.
     */
    static final Map<String, String> ANOMALY_DAYS = new HashMap<>();

    static {
        for (int d = 1; d <= 14; d++) {
            ANOMALY_DAYS.put(String.format("2026-11-%02dT00:00:00Z", d), "[" + byTenant("acme", H100, d % 2 == 1 ? "10" : "12", "1")
                    + "," + byTenant("gamma", H100, "15", "15") + "]");
        }
        ANOMALY_DAYS.put("2026-11-15T00:00:00Z", "[" + byTenant("acme", H100, "20", "1") + ","
                + byTenant("gamma", H100, "15", "15") + "," + byTenant("beta", L40S, "12", "0") + ","
                + byTenant("delta", H100, "30", "0") + "]");
    }

    private HttpServer server;
    private final Map<String, AtomicInteger> gpuHoursCalls = new ConcurrentHashMap<>();
    /** The Authorization header of the latest gpu-hours request: billing must present its service token. */
    private volatile String lastAuthorization = "";
    /** The tenant the last GPU-hours call asked for, "(all)" when none. */
    private volatile String lastTenant = "";
    /** Set by a request to /corrections: from then on the ledger tells October 2025 with its late facts. */
    private volatile boolean octoberCorrected;
    private volatile boolean juneEnergyCorrected;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Several threads, so one deliberately slow answer does not hold up the next request.
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "fake-ledger");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/api/v1/gpu-hours", this::gpuHours);
        server.createContext("/api/v1/normalization", exchange -> send(exchange, 200,
                "{\"policy\":\"" + POLICY + "\",\"version\":\"norm-2026.1\",\"since\":\"2026-01-01T00:00:00Z\"}"));
        server.createContext("/api/v1/capacity", exchange -> {
            Map<String, String> q = query(exchange);
            if (!"model".equals(q.get("groupBy"))) {
                send(exchange, 400, "{\"title\":\"Bad Request\"}");
            } else {
                send(exchange, 200, CAPACITY.getOrDefault(q.get("from") + "/" + q.get("to"), "[]"));
            }
        });
        server.createContext("/corrections", exchange -> {
            octoberCorrected = true;
            send(exchange, 200, "{}");
        });
        server.createContext("/energy-corrections", exchange -> {
            juneEnergyCorrected = true;
            send(exchange, 200, "{}");
        });
        server.createContext("/last-authorization", exchange -> send(exchange, 200, lastAuthorization));
        server.createContext("/last-tenant", exchange -> send(exchange, 200, lastTenant));
        server.createContext("/calls", exchange -> send(exchange, 200,
                String.valueOf(gpuHoursCalls.getOrDefault(query(exchange).get("from"), new AtomicInteger()).get())));
        server.start();
        return Map.of("quarkus.rest-client.ledger.url", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private void gpuHours(HttpExchange exchange) throws IOException {
        Map<String, String> q = query(exchange);
        lastAuthorization = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
        lastTenant = q.getOrDefault("tenant", "(all)");
        String from = q.get("from");
        gpuHoursCalls.computeIfAbsent(String.valueOf(from), f -> new AtomicInteger()).incrementAndGet();
        if (ANSWERS_500.equals(from)) {
            send(exchange, 500, "{\"title\":\"Internal Server Error\"}");
        } else if (DROPS_CONNECTION.equals(from)) {
            exchange.close(); // no status line at all: the connection just ends
        } else if (ANSWERS_LATE.equals(from)) {
            sleep(20_000);
            send(exchange, 200, "[]");
        } else if (ANSWERS_404.equals(from)) {
            send(exchange, 404, "{\"title\":\"Not Found\"}");
        } else if ("tenant,model".equals(q.get("groupBy")) && ANOMALY_DAYS.containsKey(from)) {
            send(exchange, 200, ANOMALY_DAYS.get(from));
        } else if (MARCH_FROM.equals(from) && MARCH_TO.equals(q.get("to")) && "UTC".equals(q.get("timeZone"))
                && q.get("groupBy").startsWith("tenant,model,")) {
            send(exchange, 200, q.get("groupBy").endsWith(",day") ? SERIES_BY_DAY
                    : q.get("groupBy").endsWith(",week") ? SERIES_BY_WEEK : "[]");
        } else if (MARCH_FROM.equals(from) && MARCH_TO.equals(q.get("to"))
                || BERLIN_MARCH_FROM.equals(from) && BERLIN_MARCH_TO.equals(q.get("to"))) {
            switch (String.valueOf(q.get("groupBy"))) {
                case "tenant,model" -> send(exchange, 200, BY_TENANT);
                case "team,model" -> send(exchange, 200, BY_TEAM);
                case "tenant,team,model" -> send(exchange, 200, BY_TENANT_TEAM);
                default -> send(exchange, 200, "[]");
            }
        } else if (june(juneEnergyCorrected).containsKey(from + "/" + q.get("to") + "/" + q.get("groupBy"))) {
            send(exchange, 200, june(juneEnergyCorrected).get(from + "/" + q.get("to") + "/" + q.get("groupBy")));
        } else if (OCT_FROM.equals(from) && OCT_CHANGE.equals(q.get("to"))) {
            boolean fine = FINE.equals(q.get("groupBy"));
            send(exchange, 200, octoberCorrected ? (fine ? OCT_1_FINE_CORRECTED : OCT_1_BY_TENANT_CORRECTED)
                    : (fine ? OCT_1_FINE : OCT_1_BY_TENANT));
        } else if (OCT_CHANGE.equals(from) && OCT_TO.equals(q.get("to"))) {
            boolean fine = FINE.equals(q.get("groupBy"));
            send(exchange, 200, octoberCorrected ? (fine ? OCT_2_FINE_CORRECTED : OCT_2_BY_TENANT_CORRECTED)
                    : (fine ? OCT_2_FINE : OCT_2_BY_TENANT));
        } else if (MARCH_FROM.equals(from) && MARCH_11.equals(q.get("to"))) {
            send(exchange, 200, "[" + byTenant("acme", H100, "50", "10") + "," + byTenant("beta", H100, "5", "5") + "]");
        } else if (JAN_FROM.equals(from) && JAN_CHANGE.equals(q.get("to"))) {
            send(exchange, 200, JAN_BEFORE_CHANGE);
        } else if (JAN_CHANGE.equals(from) && JAN_TO.equals(q.get("to"))) {
            send(exchange, 200, JAN_AFTER_CHANGE);
        } else if (WEEK_FROM.equals(from) && WEEK_TO.equals(q.get("to"))) {
            switch (String.valueOf(q.get("groupBy"))) {
                case "team,model" -> send(exchange, 200, WEEK_BY_TEAM);
                case "tenant,team,model" -> send(exchange, 200, WEEK_BY_TENANT_TEAM);
                default -> send(exchange, 200, "[]");
            }
        } else if (from != null && from.endsWith("-01T00:00:00Z") && q.get("to") != null) {
            send(exchange, 200, "[]");
        } else {
            send(exchange, 400, "{\"title\":\"Bad Request\",\"detail\":\"unexpected query " + q + "\"}");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, String> query(HttpExchange exchange) {
        Map<String, String> params = new HashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                params.put(name, value);
            }
        }
        return params;
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (var out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
