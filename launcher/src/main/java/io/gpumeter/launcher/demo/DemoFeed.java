package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends a {@link DemoSignals} to the suite through the public endpoints a real fleet's pushers and operators use,
 * with the suite's admin token, and says what went wrong in words.
 */
public final class DemoFeed {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARALLEL = 4;
    private static final int FORECAST_ATTEMPTS = 8;
    private static final Duration FORECAST_PAUSE = Duration.ofSeconds(10);

    private final Suite suite;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<String> failures = new ArrayList<>();

    public DemoFeed(Suite suite, PrintStream out) {
        this.suite = suite;
        this.out = out;
    }

    /** What went wrong, one line each; empty when every body was taken. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    /** Watch events for the collector's replay endpoint. */
    public void replay(String ndjson, String cluster) {
        send(new DemoSignals.Push("collector", "/api/v1/ingest/kubernetes?cluster=" + cluster, "application/x-ndjson",
                ndjson), 200);
    }

    /** Everything but the noisy neighbour's pod, which goes to the API server the collector watches. */
    public void send(DemoSignals signals, String cluster) throws InterruptedException {
        String replay = "/api/v1/ingest/kubernetes?cluster=" + cluster;
        send(new DemoSignals.Push("collector", replay, "application/x-ndjson",
                signals.governanceNdjson() + new DemoVolcano(signals.plan()).ndjson() + signals.oomEventNdjson()), 200);
        List<DemoSignals.Push> usage = signals.usagePushes();
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (DemoSignals.Push push : usage) {
                sent.add(pool.submit(() -> {
                    if (!send(push, 200)) {
                        failed.incrementAndGet();
                    }
                }));
            }
            for (Future<?> f : sent) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    failed.incrementAndGet();
                }
            }
        } finally {
            pool.shutdownNow();
        }
        int host = sendHostPages(signals.hostPushes(), failed);
        signals.kernelLogPushes().forEach(p -> send(p, 200));
        signals.containerLogPushes().forEach(p -> send(p, 200));
        signals.latencyPushes().forEach(p -> send(p, 200));
        signals.engineGaugePushes().forEach(p -> send(p, 200));
        signals.sloPushes().forEach(p -> send(p, 201, 409));
        out.printf("Sent %d dcgm-exporter and HAMi-monitor scrapes and %d cAdvisor and node-exporter pages (%d refused), the requests and vLLM gauges of %d "
                        + "inference services, Kueue and Volcano queues with their Volcano Jobs, kernel logs and their SLOs.%n", usage.size(), host,
                failed.get(), signals.services().size());
    }

    /**
     * The hosts' pages: a node's one after the other, as its counters move on from minute to minute (a page older than
     * the last one of its series would read as a reset), the nodes side by side. Returns how many were sent.
     */
    private int sendHostPages(List<DemoSignals.Push> pages, AtomicInteger failed) throws InterruptedException {
        Map<String, List<DemoSignals.Push>> byNode = new java.util.LinkedHashMap<>();
        pages.forEach(p -> byNode.computeIfAbsent(p.path(), k -> new ArrayList<>()).add(p));
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (List<DemoSignals.Push> node : byNode.values()) {
                sent.add(pool.submit(() -> node.forEach(p -> {
                    if (!send(p, 200)) {
                        failed.incrementAndGet();
                    }
                })));
            }
            for (Future<?> f : sent) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    failed.incrementAndGet();
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return pages.size();
    }

    /**
     * The control-group experiment: its requests to slo-service, then, once the ledger shows the over-quota workload
     * waiting (its facts travel through the collector), its plan; returns the run's URL, or null when it was not taken.
     */
    public String experiment(DemoExperiment experiment, Duration ledgerWait) throws InterruptedException {
        send(experiment.latencyPush(), 200);
        send(experiment.engineGaugePush(), 200);
        String at = experiment.from().plus(DemoExperiment.BLOCKED_WITHIN).toString();
        long deadline = System.nanoTime() + ledgerWait.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode pending = get(Service.LEDGER, "/api/v1/queue-wait/pending?at=" + at);
            if (pending != null && pending.toString().contains(DemoExperiment.HELD_WORKLOAD)) {
                break;
            }
            Thread.sleep(2000);
        }
        failures.removeIf(f -> f.startsWith("GET /api/v1/queue-wait/pending"));
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(Service.SLO)
                            + "/api/v1/acceptance/runs")).timeout(Duration.ofMinutes(2))
                    .header("Content-Type", "application/json").header("Authorization", "Bearer " + suite.adminToken())
                    .POST(HttpRequest.BodyPublishers.ofString(experiment.planJson())).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 201) {
                failures.add("POST /api/v1/acceptance/runs -> " + r.statusCode() + " " + abbreviate(r.body()));
                return null;
            }
            String location = r.headers().firstValue("Location").orElse("");
            return location.startsWith("http") ? location
                    : base(Service.SLO) + location.substring(location.indexOf("/api/"));
        } catch (IOException e) {
            failures.add("POST /api/v1/acceptance/runs: " + e.getMessage());
            return null;
        }
    }

    /** Runs slo-service's jitter detection over the usage span now rather than at its next minute. */
    public void detectJitter(DemoSignals signals) {
        send(new DemoSignals.Push("slo", "/api/v1/jitter-events/detections?from="
                + signals.usageFrom() + "&to=" + signals.usageTo(), "application/json", ""), 200);
    }

    /**
     * Budgets from each tenant's own forecast for the month: twice it for everyone, and for
     * {@link DemoSignals#overrunTenant()} 90 % of it, so that its forecast overruns.
     *
     * @return the budgets set, by tenant
     */
    public Map<String, BigDecimal> budgets(List<String> tenants) {
        Map<String, BigDecimal> set = new TreeMap<>();
        for (String tenant : tenants) {
            send(new DemoSignals.Push("billing", "/api/v1/budgets/" + tenant, "application/json",
                    "{\"monthlyAmount\":1000000.00}"), "PUT", 200, 201);
        }
        // billing asks the ledger for the month so far; while the ledger still digests the scrapes just sent, on a
        // busy machine, that may time out and open billing's circuit breaker for a while: ask again, a while later
        JsonNode forecasts = null;
        for (int attempt = 0; attempt < FORECAST_ATTEMPTS && forecasts == null; attempt++) {
            if (attempt > 0) {
                try {
                    Thread.sleep(FORECAST_PAUSE.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return set;
                }
            }
            forecasts = get(Service.BILLING, "/api/v1/budget-forecasts");
        }
        if (forecasts == null) {
            return set;
        }
        failures.removeIf(f -> f.startsWith("GET /api/v1/budget-forecasts"));
        for (JsonNode f : forecasts.isArray() ? forecasts : forecasts.path("tenants")) {
            String tenant = f.path("tenant").asText();
            BigDecimal forecast = f.path("forecast").decimalValue();
            if (forecast.signum() <= 0) {
                continue;
            }
            BigDecimal share = tenant.equals(DemoSignals.overrunTenant()) ? new BigDecimal("0.9") : new BigDecimal("2");
            BigDecimal budget = forecast.multiply(share).setScale(2, RoundingMode.HALF_EVEN);
            if (send(new DemoSignals.Push("billing", "/api/v1/budgets/" + tenant, "application/json",
                    "{\"monthlyAmount\":" + budget.toPlainString() + "}"), "PUT", 200, 201)) {
                set.put(tenant, budget);
            }
        }
        return set;
    }

    JsonNode get(Service service, String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(service) + path))
                    .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + suite.adminToken()).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                failures.add("GET " + path + " -> " + r.statusCode() + " " + abbreviate(r.body()));
                return null;
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            failures.add("GET " + path + ": " + e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private boolean send(DemoSignals.Push push, int... accepted) {
        return send(push, "POST", accepted);
    }

    private boolean send(DemoSignals.Push push, String method, int... accepted) {
        Service service = switch (push.service()) {
            case "collector" -> Service.COLLECTOR;
            case "slo" -> Service.SLO;
            case "billing" -> Service.BILLING;
            case "ledger" -> Service.LEDGER;
            default -> throw new IllegalArgumentException(push.service());
        };
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(service) + push.path()))
                    .timeout(Duration.ofMinutes(2)).header("Content-Type", push.contentType())
                    .header("Authorization", "Bearer " + suite.adminToken())
                    .method(method, HttpRequest.BodyPublishers.ofString(push.body())).build(),
                    HttpResponse.BodyHandlers.ofString());
            for (int ok : accepted) {
                if (r.statusCode() == ok) {
                    return true;
                }
            }
            synchronized (failures) {
                failures.add(method + " " + push.path() + " -> " + r.statusCode() + " " + abbreviate(r.body()));
            }
            return false;
        } catch (IOException e) {
            synchronized (failures) {
                failures.add(method + " " + push.path() + ": " + e.getMessage());
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String base(Service service) {
        String url = suite.url(service).toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static String abbreviate(String text) {
        String oneLine = text == null ? "" : text.replaceAll("\\s+", " ");
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "…" : oneLine;
    }
}
