package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends a {@link DemoSignals} to the suite through the public endpoints a real fleet's pushers and operators use,
 * with the suite's admin token ({@link SuiteCalls}), and says what went wrong in words.
 */
public final class DemoFeed {

    private static final int PARALLEL = 4;
    private static final int FORECAST_ATTEMPTS = 8;
    private static final Duration FORECAST_PAUSE = Duration.ofSeconds(10);

    private final PrintStream out;
    private final SuiteCalls calls;

    public DemoFeed(Suite suite, PrintStream out) {
        this.out = out;
        this.calls = new SuiteCalls(suite);
    }

    /** What went wrong, one line each; empty when every body was taken. */
    public List<String> failures() {
        return calls.failures();
    }

    /** Watch events for the collector's replay endpoint. */
    public void replay(String ndjson, String cluster) {
        calls.post(new DemoSignals.Push("collector", "/api/v1/ingest/kubernetes?cluster=" + cluster,
                "application/x-ndjson", ndjson), 200);
    }

    /** Everything but the noisy neighbour's pod, which goes to the API server the collector watches. */
    public void send(DemoSignals signals, String cluster) throws InterruptedException {
        String replay = "/api/v1/ingest/kubernetes?cluster=" + cluster;
        calls.post(new DemoSignals.Push("collector", replay, "application/x-ndjson",
                signals.governanceNdjson() + new DemoVolcano(signals.plan()).ndjson() + signals.oomEventNdjson()), 200);
        List<DemoSignals.Push> usage = signals.usagePushes();
        AtomicInteger failed = new AtomicInteger();
        sendInLanes(usage.stream().map(List::of).toList(), failed);
        // a node's pages one after the other, as its counters move on from minute to minute (a page older than the
        // last one of its series would read as a reset), the nodes side by side
        List<DemoSignals.Push> hostPages = signals.hostPushes();
        Map<String, List<DemoSignals.Push>> byNode = new LinkedHashMap<>();
        hostPages.forEach(p -> byNode.computeIfAbsent(p.path(), k -> new ArrayList<>()).add(p));
        sendInLanes(byNode.values(), failed);
        signals.kernelLogPushes().forEach(p -> calls.post(p, 200));
        signals.containerLogPushes().forEach(p -> calls.post(p, 200));
        signals.latencyPushes().forEach(p -> calls.post(p, 200));
        signals.engineGaugePushes().forEach(p -> calls.post(p, 200));
        signals.sloPushes().forEach(p -> calls.post(p, 201, 409));
        out.printf("Sent %d dcgm-exporter and HAMi-monitor scrapes and %d cAdvisor and node-exporter pages (%d refused), the requests and vLLM gauges of %d "
                        + "inference services, Kueue and Volcano queues with their Volcano Jobs, kernel logs and their SLOs.%n", usage.size(),
                hostPages.size(), failed.get(), signals.services().size());
    }

    /** Sends each lane's pushes in order, {@link #PARALLEL} lanes at a time, counting the pushes not taken. */
    private void sendInLanes(Collection<List<DemoSignals.Push>> lanes, AtomicInteger failed)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (List<DemoSignals.Push> lane : lanes) {
                sent.add(pool.submit(() -> lane.forEach(p -> {
                    if (!calls.post(p, 200)) {
                        failed.incrementAndGet();
                    }
                })));
            }
            for (Future<?> f : sent) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    failed.incrementAndGet();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The control-group experiment: its requests to slo-service, then, once the ledger shows the over-quota workload
     * waiting (its facts travel through the collector), its plan; returns the run's URL, or null when it was not taken.
     */
    public String experiment(DemoExperiment experiment, Duration ledgerWait) throws InterruptedException {
        calls.post(experiment.latencyPush(), 200);
        calls.post(experiment.engineGaugePush(), 200);
        String at = experiment.from().plus(DemoExperiment.BLOCKED_WITHIN).toString();
        long deadline = System.nanoTime() + ledgerWait.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode pending = calls.get(Service.LEDGER, "/api/v1/queue-wait/pending?at=" + at);
            if (pending != null && pending.toString().contains(DemoExperiment.HELD_WORKLOAD)) {
                break;
            }
            Thread.sleep(2000);
        }
        calls.forget("GET /api/v1/queue-wait/pending");
        return calls.create(Service.SLO, "/api/v1/acceptance/runs", experiment.planJson());
    }

    /** Runs slo-service's jitter detection over the usage span now rather than at its next minute. */
    public void detectJitter(DemoSignals signals) {
        calls.post(new DemoSignals.Push("slo", "/api/v1/jitter-events/detections?from="
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
            calls.send(new DemoSignals.Push("billing", "/api/v1/budgets/" + tenant, "application/json",
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
            forecasts = calls.get(Service.BILLING, "/api/v1/budget-forecasts");
        }
        if (forecasts == null) {
            return set;
        }
        calls.forget("GET /api/v1/budget-forecasts");
        for (JsonNode f : forecasts.isArray() ? forecasts : forecasts.path("tenants")) {
            String tenant = f.path("tenant").asText();
            BigDecimal forecast = f.path("forecast").decimalValue();
            if (forecast.signum() <= 0) {
                continue;
            }
            BigDecimal share = tenant.equals(DemoSignals.overrunTenant()) ? new BigDecimal("0.9") : new BigDecimal("2");
            BigDecimal budget = forecast.multiply(share).setScale(2, RoundingMode.HALF_EVEN);
            if (calls.send(new DemoSignals.Push("billing", "/api/v1/budgets/" + tenant, "application/json",
                    "{\"monthlyAmount\":" + budget.toPlainString() + "}"), "PUT", 200, 201)) {
                set.put(tenant, budget);
            }
        }
        return set;
    }
}
