package io.gpumeter.launcher.demo;

import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimPod;
import io.gpumeter.launcher.simulator.StackPlan;
import io.gpumeter.launcher.simulator.TenantPeriod;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.gpumeter.launcher.suite.SuiteBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code up --demo}: a simulated cluster behind a mock API server that the collector watches, the fleet history
 * replayed into it, and then one answer of each kind the suite exists for.
 */
public final class Demo {

    public static final String CLUSTER = "demo";
    private static final Duration WATCH_WAIT = Duration.ofSeconds(60);
    private static final Duration LEDGER_WAIT = Duration.ofSeconds(180);
    /** How long the experiment waits for the ledger to show the workload Kueue holds back before submitting. */
    private static final Duration EXPERIMENT_WAIT = Duration.ofSeconds(60);

    private final FleetSimulator simulator;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public Demo(FleetSimulator simulator, PrintStream out) {
        this.simulator = simulator;
        this.out = out;
    }

    /** Points the collector at the simulated API server. */
    public void configure(SuiteBuilder suite, SimulatedApiServer api) {
        suite.env(Service.COLLECTOR, "GPUMETER_COLLECTOR_CLUSTER", CLUSTER)
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "true")
                .env(Service.COLLECTOR, "QUARKUS_KUBERNETES_CLIENT_API_SERVER_URL", api.url())
                .env(Service.COLLECTOR, "QUARKUS_KUBERNETES_CLIENT_TRUST_CERTS", "true")
                // the bill prices the energy the cards drew, and says its emissions: a grid's average price and mix
                .env(Service.BILLING, "GPUMETER_BILLING_RATE_CARD_ENERGY_PRICE_PER_KWH", "0.15")
                .env(Service.BILLING, "GPUMETER_BILLING_RATE_CARD_GRAMS_CO2E_PER_KWH", "350");
    }

    /** Feeds the history, waits for the ledger to hold it, and prints a Q1 answer and the monthly CSV. */
    public void run(Suite suite, SimulatedApiServer api) throws IOException, InterruptedException {
        Plan plan = simulator.plan();
        out.printf("%nSimulating %d pods on %d GPUs from %s to %s (seed %d)...%n", plan.pods().size(),
                plan.gpus().count(), plan.start(), plan.end(), plan.seed());
        boolean watched = api.awaitWatches(List.of("pods"), WATCH_WAIT);
        if (watched) {
            // the GPU stack's DaemonSets and the scheduler's events too, where the collector watches them: their
            // history then reaches it event by event rather than as the last state its first list finds
            api.awaitWatches(List.of("pods", "nodes", "namespaces", "daemonsets", "events"), Duration.ofSeconds(5));
            long t0 = System.nanoTime();
            simulator.applyTo(api.client());
            out.printf("Replayed %d watch events into the mock API server at %s in %d s.%n", plan.events().size(),
                    api.url(), Duration.ofNanos(System.nanoTime() - t0).toSeconds());
        } else {
            out.printf("The collector opened no watch on %s within %d s; sending the same history to its replay "
                    + "endpoint instead.%n", api.url(), WATCH_WAIT.toSeconds());
            replay(suite);
        }
        DemoSignals signals = new DemoSignals(plan);
        DemoFeed feed = new DemoFeed(suite, out);
        if (watched) {
            api.client().resource(signals.neighbour()).create();
            api.client().resource(signals.oomPod()).create();
        } else {
            feed.replay(signals.neighbourNdjson() + signals.oomPodNdjson(), CLUSTER);
        }
        feed.send(signals, CLUSTER);
        if (System.getenv().getOrDefault("QUARKUS_REST_CLIENT_ALERTMANAGER_URL", "").isBlank()) {
            // no Alertmanager to send the fired alerts back: the demo plays its part, so the runbook acts (dry-run)
            new DemoAlertmanager(suite).start();
        }
        OccupancySample.busiest(plan).ifPresent(sample -> showOccupants(suite, sample));
        feed.detectJitter(signals);
        Map<String, BigDecimal> budgets = feed.budgets(plan.namespaces().stream()
                .flatMap(n -> n.tenants().stream().map(TenantPeriod::tenant)).distinct().sorted().toList());
        DemoExperiment experiment = new DemoExperiment(plan, signals);
        String run = feed.experiment(experiment, EXPERIMENT_WAIT);
        feed.failures().forEach(f -> out.printf("  not taken: %s%n", f));
        showReports(suite, plan);
        if (run != null) {
            out.printf("%nAcceptance run of the control-group experiment (%s: %s), one page to sign:%n  %s/verdict%n"
                            + "  the pack with its evidence: %s/pack%n", DemoExperiment.WORKLOAD, experiment.arms().stream()
                            .map(DemoExperiment.Arm::cell).collect(Collectors.joining(", ")), run, run);
        }
        showQuestions(suite, plan, signals, budgets);
    }

    /** Where each question's answer is, for the signals just sent. */
    private void showQuestions(Suite suite, Plan plan, DemoSignals signals, Map<String, BigDecimal> budgets) {
        String from = Rfc3339.format(signals.usageFrom());
        String to = Rfc3339.format(signals.usageTo());
        String ledger = base(suite, Service.LEDGER);
        String slo = base(suite, Service.SLO);
        out.printf("%nThe last %d minutes of the fleet, question by question:%n", DemoSignals.USAGE_SPAN.toMinutes());
        out.printf("  Q2  allocated and used GPU-hours:  %s/api/v1/gpu-hours?from=%s&to=%s&groupBy=tenant%n", ledger, from, to);
        out.printf("  Q3  idle cards and allocations:    %s/api/v1/idle?from=%s&to=%s&groupBy=tenant%n", ledger, from, to);
        out.printf("  Q4  SLOs and the jitter episode:   %s/api/v1/slo-states?from=%s&to=%s%n", slo, from, to);
        // a service is known by its namespace and its name
        String chatNamespace = signals.services().get(0).pod().namespace();
        out.printf("                                     %s/api/v1/jitter-events?from=%s&to=%s&service=%s&namespace=%s%n",
                slo, from, to, DemoSignals.CHAT_SERVICE, chatNamespace);
        out.printf("  Q5  its noisy neighbour:           %s/api/v1/interference?service=%s&namespace=%s&from=%s&to=%s%n",
                slo, DemoSignals.CHAT_SERVICE, chatNamespace, from, to);
        out.printf("  Q6  queue waits (Kueue, Volcano):  %s/api/v1/queue-wait?from=%s&to=%s&groupBy=clusterQueue%n", ledger,
                Rfc3339.format(signals.usageTo().minus(Duration.ofDays(2))), to);
        out.printf("                                     %s/api/v1/queue-wait/pending%n", ledger);
        out.printf("      Volcano Jobs that finished:    %s/api/v1/volcano-jobs?from=%s&to=%s&groupBy=queue%n", ledger,
                Rfc3339.format(plan.start()), to);
        out.printf("  Q7  allocated against used:        %s/api/v1/reconciliation?from=%s&to=%s&groupBy=namespace%n", ledger,
                from, to);
        out.printf("  Q8  failures and recoveries:       %s/api/v1/failures?from=%s&to=%s&groupBy=cause%n", ledger,
                Rfc3339.format(signals.usageTo().minus(Duration.ofDays(1))), to);
        StackPlan stack = plan.stack();
        // the collector stamps a change with the instant it saw it: the replayed history's changes are of the last
        // minutes, so the window reaches past the end of the history
        out.printf("  What changed (driver %s -> %s on %s, MIG layout, GPU stack):%n"
                        + "                                     %s/api/v1/changes?from=%s&to=%s%n",
                stack.upgrade().driverBefore(), stack.upgrade().driverAfter(), stack.upgrade().node(), ledger,
                Rfc3339.format(plan.start()), Rfc3339.format(signals.usageTo().plus(Duration.ofDays(1))));
        // for the same reason the node's GPU stack is read as it stands: the crash loop is in the book, as
        // GPU_ALLOCATABLE and COMPONENT_HEALTH changes of the node
        out.printf("  Data plane or control plane: what %s offers and how its GPU stack's pods serve it:%n"
                        + "                                     %s/api/v1/nodes/%s/gpu-stack%n",
                stack.crashLoop().node(), ledger, stack.crashLoop().node());
        out.printf("  Q9  budgets against forecasts:     %s/api/v1/budget-forecasts%n", base(suite, Service.BILLING));
        if (!budgets.isEmpty()) {
            out.printf("      (monthly budgets set: %s; %s's is 90 %% of its forecast)%n", budgets.entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue().toPlainString()).collect(Collectors.joining(", ")),
                    DemoSignals.overrunTenant());
        }
        out.printf("  alerts (evaluated every minute):   %s/api/v1/alerts, dry-run actions (the demo sends the fired alerts "
                        + "back to the webhook as Alertmanager would): %s/api/v1/actions%n",
                base(suite, Service.ALERT), base(suite, Service.ALERT));
    }

    private static String base(Suite suite, Service service) {
        String url = suite.url(service).toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private void replay(Suite suite) throws IOException, InterruptedException {
        StringWriter ndjson = new StringWriter();
        simulator.toNdjson(ndjson);
        URI uri = URI.create(suite.url(Service.COLLECTOR) + "/api/v1/ingest/kubernetes?cluster=" + CLUSTER);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5))
                .header("Content-Type", "application/x-ndjson")
                .header("Authorization", "Bearer " + suite.adminToken())
                .POST(HttpRequest.BodyPublishers.ofString(ndjson.toString())).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        out.printf("POST %s -> %d %s%n", uri, response.statusCode(), abbreviate(response.body()));
    }

    private void showOccupants(Suite suite, OccupancySample sample) {
        String url = suite.url(Service.LEDGER) + "/api/v1/gpus/" + sample.gpuUuid() + "/occupants?at="
                + Rfc3339.format(sample.at());
        String auth = "Bearer " + suite.adminToken();
        out.printf("%nQ1: who held %s at %s?%n  %s%n", sample.gpuUuid(), Rfc3339.format(sample.at()), curl(url));
        out.printf("  the simulator put there: %s%n", sample.occupants().stream()
                .map(p -> p.namespace() + "/" + p.name()).collect(Collectors.joining(", ")));
        Instant deadline = Instant.now().plus(LEDGER_WAIT);
        String last = "no answer";
        while (Instant.now().isBefore(deadline)) {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10)).header("Authorization", auth).GET().build(), HttpResponse.BodyHandlers.ofString());
                last = response.statusCode() + " " + response.body();
                if (response.statusCode() == 200 && namesExactly(response.body(), sample.occupants())) {
                    out.printf("  ledger says:%n%s%n", Json.pretty(response.body()));
                    return;
                }
                Thread.sleep(2000);
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        out.printf("  the ledger did not show exactly these pods within %d s; its last answer: %s%n  (see %s and %s)%n",
                LEDGER_WAIT.toSeconds(), abbreviate(last), suite.logFile(Service.COLLECTOR),
                suite.logFile(Service.LEDGER));
    }

    private void showReports(Suite suite, Plan plan) {
        YearMonth lastMonth = YearMonth.from(plan.end().atZone(ZoneOffset.UTC)).minusMonths(1);
        Instant from = lastMonth.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant to = lastMonth.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        out.printf("%nGPU-hours by tenant for %s:%n  %s%n", lastMonth, curl(suite.url(Service.LEDGER)
                + "/api/v1/gpu-hours?from=" + Rfc3339.format(from) + "&to=" + Rfc3339.format(to) + "&groupBy=tenant"));
        out.printf("Monthly cost report for %s (CSV):%n  %s%n", lastMonth, curl("-o", "gpumeter-" + lastMonth + ".csv",
                suite.url(Service.BILLING) + "/api/v1/reports/monthly?month=" + lastMonth + "&format=csv"));
    }

    /** A curl line to paste into a shell: its arguments single-quoted, the token the reader's own $TOKEN. */
    private static String curl(String... arguments) {
        StringBuilder line = new StringBuilder("curl -H ").append(ShellWords.quote("Authorization: Bearer "))
                .append(ShellWords.variable("TOKEN"));
        for (String argument : arguments) {
            line.append(' ').append(ShellWords.quote(argument));
        }
        return line.toString();
    }

    /** The ledger has caught up once it names exactly the pods the simulator put on the card then. */
    private static boolean namesExactly(String body, List<SimPod> pods) {
        try {
            java.util.Set<String> answered = new java.util.TreeSet<>();
            new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).forEach(o -> answered.add(o.path("pod").asText()));
            return answered.equals(pods.stream().map(SimPod::name).collect(Collectors.toCollection(java.util.TreeSet::new)));
        } catch (IOException e) {
            return false;
        }
    }

    private static String abbreviate(String text) {
        String oneLine = text == null ? "" : text.replaceAll("\\s+", " ");
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "…" : oneLine;
    }
}
