package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults against the real processes: PostgreSQL stopped during steady live ingest, ledger-service killed in the
 * middle of a batch, the collector killed while pods start and finish, and a ledger that hangs under billing. The
 * collector watches a simulated API server (the live path, as {@code ./gpumeter up --demo} runs it), so the tests
 * change pods there and read the results back from the ledger. Every pod holds one whole A100 for a stated time,
 * so each expected figure is a count times a duration, worked out in the comments.
 * <p>
 * Only the collector, the ledger and billing run: nothing here needs slo or alert.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultEndToEndTest {

    static final String CLUSTER = "faults";
    static final String NODE = "a100-f1";
    static final String MODEL = "NVIDIA-A100-SXM4-80GB";
    /** The collector's fact buffer is kept small, so that an outage fills it and shows that it is bounded. */
    static final int BUFFER_CAPACITY = 40;
    /** Billing's ledger breakers wait this long once open: long enough to read them open on a slow machine. */
    static final int BREAKER_DELAY_SECONDS = 30;
    static final ObjectMapper JSON = new ObjectMapper();

    static SimulatedApiServer api;
    static Suite suite;
    static String token;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    static void start() throws InterruptedException {
        api = SimulatedApiServer.start();
        Path root = SuiteExtension.repoRoot();
        Path state = root.resolve("src/test/target/faults-" + ProcessHandle.current().pid());
        suite = Suite.builder(root)
                .services(EnumSet.of(Service.COLLECTOR, Service.LEDGER, Service.BILLING))
                .freePorts()
                .embeddedDatabase(state.resolve("pgdata"))
                .freshDatabase(true)
                .stateDirectory(state)
                .logDirectory(state.resolve("logs"))
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_CLUSTER", CLUSTER)
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "true")
                .env(Service.COLLECTOR, "QUARKUS_KUBERNETES_CLIENT_API_SERVER_URL", api.url())
                .env(Service.COLLECTOR, "QUARKUS_KUBERNETES_CLIENT_TRUST_CERTS", "true")
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_DELIVERY_FLUSH_INTERVAL", "1s")
                .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_DELIVERY_BUFFER_CAPACITY", Integer.toString(BUFFER_CAPACITY))
                // an open breaker stays open while the test reads it, however slowly the machine answers
                .env(Service.BILLING, "GPUMETER_BILLING_LEDGER_BREAKER_DELAY_SECONDS", Integer.toString(BREAKER_DELAY_SECONDS))
                .readyTimeout(Duration.ofMinutes(3))
                .build()
                .start();
        token = suite.adminToken();
        assertTrue(api.awaitWatches(List.of("pods", "nodes", "namespaces"), Duration.ofSeconds(60)),
                "the collector watches the simulated API server");
        KubernetesClient k8s = api.client();
        k8s.resource(node()).create();
        k8s.resource(namespace("steady", "steady-co")).create();
        k8s.resource(namespace("restart", "restart-co")).create();
    }

    @AfterAll
    static void stop() {
        if (suite != null) {
            suite.stop();
        }
        if (api != null) {
            api.close();
        }
    }

    /**
     * A pod that waits holds back nothing. Replayed, a namespace and one Pending pod asking for a MIG slice are
     * stored (its request reconciled: 1 slice of the default 7 over the hour it asked, 1/7 h), and so are pods on a
     * node not seen yet and a pod whose MIG resource no card offers, which is reported as skipped. Watched live,
     * the same waiting pods sit in the API server while three ordinary pods arrive after them: every pod reaches the
     * ledger, the buffer drains, and the ordinary pods hold their card for their 30 minutes each (1.5 h).
     */
    @Test
    @Order(0)
    void aPodThatWaitsHoldsBackNothing() throws Exception {
        KubernetesSerialization serialization = new KubernetesSerialization();
        Instant asked = Instant.parse("2026-02-01T10:00:00Z");
        String twoLines = event(serialization, namespace("waiting", "replayed-co")) + "\n"
                + event(serialization, pending("waiting", "mig-0", asked, "nvidia.com/mig-1g.10gb")) + "\n";
        HttpResponse<String> stored = replay(twoLines, "waiting-replay");
        assertEquals(200, stored.statusCode(), stored.body());
        assertEquals(2, JSON.readTree(stored.body()).path("accepted").asInt(), stored.body());
        HttpResponse<String> reconciled = get(Service.LEDGER, "/api/v1/reconciliation?from=2026-02-01T10:00:00Z"
                + "&to=2026-02-01T11:00:00Z&groupBy=cluster");
        assertEquals(200, reconciled.statusCode(), reconciled.body());
        BigDecimal requested = null;
        for (JsonNode row : JSON.readTree(reconciled.body())) {
            if (row.path("key").asText().equals("waiting-replay")) {
                requested = row.path("requestedGpuHours").decimalValue();
            }
        }
        assertHours("0.142857", requested);

        Pod ghost = pod("waiting", "ghost-whole", asked, null);
        ghost.getSpec().setNodeName("node-not-seen-yet");
        Pod ghostMig = pending("waiting", "ghost-mig", asked, "nvidia.com/mig-3g.40gb");
        ghostMig.getSpec().setNodeName("node-not-seen-yet");
        String odd = event(serialization, ghost) + "\n" + event(serialization, ghostMig) + "\n"
                + event(serialization, pending("waiting", "malformed", asked, "nvidia.com/mig-9g.999gb")) + "\n";
        HttpResponse<String> oddAnswer = replay(odd, "waiting-replay");
        assertEquals(200, oddAnswer.statusCode(), oddAnswer.body());
        JsonNode skipped = JSON.readTree(oddAnswer.body()).path("booksSkipped");
        assertEquals(1, skipped.size(), oddAnswer.body());
        assertTrue(skipped.get(0).path("key").asText().contains("waiting/malformed"), oddAnswer.body());

        KubernetesClient k8s = api.client();
        k8s.resource(namespace("waiting", "waiting-co")).create();
        k8s.resource(pending("waiting", "mig-0", asked, "nvidia.com/mig-1g.10gb")).create();
        k8s.resource(pending("waiting", "malformed", asked, "nvidia.com/mig-9g.999gb")).create();
        Instant april = Instant.parse("2026-04-01T00:00:00Z");
        for (int i = 0; i < 3; i++) {
            Instant scheduled = april.plus(Duration.ofHours(i));
            k8s.resource(pod("waiting", "after-" + i, scheduled, scheduled.plus(Duration.ofMinutes(30)))).create();
        }
        await("all five waiting pods in the ledger").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> podFacts("waiting") == 5);
        await("the buffer to drain").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .until(() -> bufferedFacts() == 0);
        assertHours("1.5", hours("2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z").get("waiting-co"));
    }

    /** A pod that waits for a node: PodScheduled False, no node, asking for one of {@code resource}. */
    static Pod pending(String namespace, String name, Instant created, String resource) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withUid("uid-" + namespace + "-" + name).withCreationTimestamp(created.toString()).withResourceVersion("7")
                .endMetadata()
                .withNewSpec().withSchedulerName("default-scheduler").addNewContainer().withName("main")
                .withImage("server").withNewResources().addToLimits(resource, new Quantity("1")).endResources()
                .endContainer().endSpec()
                .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withLastTransitionTime(created.toString()).endCondition().endStatus().build();
    }

    /**
     * Steady ingest is the live watch: a pod is created in the API server every 400 ms, and the collector's
     * informers turn each into one fact for the ledger. 10 pods before the outage, 50 during the 30 s without
     * PostgreSQL, 10 after; each holds 1 card from its PodScheduled for 30 min: 70 x 0.5 = 35 card-hours.
     */
    @Test
    @Order(1)
    void postgresStoppedForThirtySecondsLosesAndDoublesNothing() throws Exception {
        KubernetesClient k8s = api.client();
        Instant march = Instant.parse("2026-03-01T00:00:00Z");
        int created = 0;
        for (; created < 10; created++) {
            k8s.resource(steadyPod(created, march)).create();
        }
        await("the first 10 pods in the ledger").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> podFacts("steady") == 10);
        assertEquals(0, bufferedFacts(), "nothing waits while the ledger takes every batch");

        suite.faults().stopDatabase();
        long outageStart = System.nanoTime();
        int maxBuffered = 0;
        // Looked at while the pods are created too: on a busy machine creating them can outlast the 30 s outage.
        boolean full = false;
        try {
            for (int i = 0; i < 50; i++, created++) {
                k8s.resource(steadyPod(created, march)).create();
                Thread.sleep(400);
                int buffered = bufferedFacts();
                maxBuffered = Math.max(maxBuffered, buffered);
                full |= buffered == BUFFER_CAPACITY;
            }
            // The 50 facts cannot all wait: the buffer holds 40 and the watch waits for room with the other 10.
            while (System.nanoTime() - outageStart < TimeUnit.SECONDS.toNanos(30)) {
                int buffered = bufferedFacts();
                maxBuffered = Math.max(maxBuffered, buffered);
                full |= buffered == BUFFER_CAPACITY;
                Thread.sleep(250);
            }
            assertTrue(full, "the buffer filled up to its bound during the outage");
            assertEquals(BUFFER_CAPACITY, maxBuffered, "never above its bound");
            assertTrue(suite.isRunning(Service.COLLECTOR), "the collector stays up");
        } finally {
            suite.faults().startDatabase();
        }
        for (int i = 0; i < 10; i++, created++) {
            k8s.resource(steadyPod(created, march)).create();
        }
        assertEquals(70, created);

        await("all 70 pods in the ledger").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> podFacts("steady") == 70);
        await("the buffer to drain").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                .until(() -> bufferedFacts() == 0);
        assertEquals(70, sqlCount("SELECT count(DISTINCT uid) FROM ledger.pod_fact WHERE cluster = '" + CLUSTER
                + "' AND namespace = 'steady'"), "one fact per pod: the ADDED each pod made");
        assertEquals(70, sqlCount("SELECT count(*) FROM ledger.allocation_segment WHERE cluster = '" + CLUSTER
                + "' AND namespace = 'steady' AND seg_end - seg_start = interval '30 minutes'"));
        assertHours("35", hours("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z").get("steady-co"));
    }

    /**
     * ledger-service SIGKILLed while it stores a replayed batch of 4,000 pods (each 1 card for 6 min, so
     * 4,000 x 0.1 = 400 card-hours in January): the batch is stored whole or not at all; replayed again after the
     * restart, every pod is there once, and a third replay changes nothing.
     */
    @Test
    @Order(2)
    void ledgerKilledMidBatchLosesAndDoublesNothing() throws Exception {
        String cluster = "ledger-kill";
        int pods = 4000;
        String stream = januaryStream(pods);
        assertEquals(0, sqlCount(clusterFacts(cluster)));

        CompletableFuture<HttpResponse<String>> firstTry = CompletableFuture.supplyAsync(() -> replay(stream, cluster));
        AtomicBoolean writing = new AtomicBoolean();
        await("the ledger writing the batch, or the batch taken").atMost(Duration.ofSeconds(60))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).until(() -> {
                    if (ledgerWriting()) {
                        writing.set(true);
                    }
                    return writing.get() || firstTry.isDone();
                });
        suite.faults().kill(Service.LEDGER);
        assertTrue(writing.get(), "the ledger was caught writing the batch");

        HttpResponse<String> answer = firstTry.get(2, TimeUnit.MINUTES);
        long stored = sqlCount(clusterFacts(cluster));
        System.out.printf("ledger killed mid-batch: the replay answered %d, %d of %d pod facts stored%n",
                answer.statusCode(), stored, pods);
        if (answer.statusCode() == 503) {
            assertTrue(answer.body().contains("nothing of this request is stored"), answer.body());
            assertEquals(0, stored, "a batch the ledger did not confirm left no row behind");
        } else {
            // The commit won the race with the kill: then the whole batch is there.
            assertEquals(200, answer.statusCode(), answer.body());
            assertEquals(pods, stored);
        }

        suite.faults().start(Service.LEDGER);
        HttpResponse<String> again = replayUntilTaken(stream, cluster);
        JsonNode result = JSON.readTree(again.body());
        // every pod, the namespace and the node, whether the first try left them (a commit that won) or not
        assertEquals(pods + 2, result.path("accepted").asInt() + result.path("duplicates").asInt(), again.body());
        assertEquals(pods, sqlCount(clusterFacts(cluster)));
        assertEquals(pods, sqlCount("SELECT count(DISTINCT uid) FROM ledger.pod_fact WHERE cluster = '" + cluster + "'"));

        HttpResponse<String> third = replayUntilTaken(stream, cluster);
        assertEquals(0, JSON.readTree(third.body()).path("accepted").asInt(), third.body());
        assertEquals(pods + 2, JSON.readTree(third.body()).path("duplicates").asInt(), third.body());
        assertEquals(pods, sqlCount(clusterFacts(cluster)), "nothing doubled");
        assertHours("400", hours("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z").get("batch-co"));
    }

    /**
     * The collector SIGKILLed while pods run; while it is down, those pods finish, others start and finish, and
     * others start. After its restart the informers' list brings every pod's current state, whose timestamps
     * close the gap exactly. In April 2026, one card each:
     * <pre>
     * running-0..4   seen running before the kill; finish while it is down   04-0(i+1) 00:00 - 02:00   5 x 2 h
     * unseen-0..4    start and finish while it is down                        04-1(i)  00:00 - 01:00    5 x 1 h
     * late-0..2      start while it is down; finish after the restart         04-2(i)  00:00 - 03:00    3 x 3 h
     * </pre>
     * 10 + 5 + 9 = 24 card-hours.
     */
    @Test
    @Order(3)
    void collectorKilledMidStreamLeavesNoGap() throws Exception {
        KubernetesClient k8s = api.client();
        List<Pod> running = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Instant scheduled = Instant.parse("2026-04-0" + (i + 1) + "T00:00:00Z");
            running.add(k8s.resource(pod("restart", "running-" + i, scheduled, null)).create());
        }
        await("the running pods in the ledger").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> openSegments("restart") == 5);

        suite.faults().kill(Service.COLLECTOR);
        for (Pod p : running) {
            Instant scheduled = Instant.parse(p.getStatus().getConditions().get(0).getLastTransitionTime());
            k8s.resource(finished(k8s.resource(p).get(), scheduled.plus(Duration.ofHours(2)))).update();
        }
        for (int i = 0; i < 5; i++) {
            Instant scheduled = Instant.parse("2026-04-1" + i + "T00:00:00Z");
            k8s.resource(pod("restart", "unseen-" + i, scheduled, scheduled.plus(Duration.ofHours(1)))).create();
        }
        List<Pod> late = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            late.add(k8s.resource(pod("restart", "late-" + i, Instant.parse("2026-04-2" + i + "T00:00:00Z"), null)).create());
        }
        assertEquals(5, openSegments("restart"), "nothing reaches the ledger while the collector is down");

        suite.faults().start(Service.COLLECTOR);
        await("the list after the restart").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> sqlCount(namespaceSegments("restart")) == 13 && openSegments("restart") == 3);
        for (Pod p : late) {
            Instant scheduled = Instant.parse(p.getStatus().getConditions().get(0).getLastTransitionTime());
            k8s.resource(finished(k8s.resource(p).get(), scheduled.plus(Duration.ofHours(3)))).update();
        }
        await("the late pods to finish").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> openSegments("restart") == 0);

        Map<String, String> spans = new TreeMap<>();
        try (Connection c = jdbc(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT pod, seg_start, seg_end FROM ledger.allocation_segment WHERE cluster = '"
                     + CLUSTER + "' AND namespace = 'restart'")) {
            while (rs.next()) {
                spans.put(rs.getString(1), rs.getTimestamp(2).toInstant() + " " + rs.getTimestamp(3).toInstant());
            }
        }
        assertEquals(13, spans.size(), spans.toString());
        assertEquals("2026-04-01T00:00:00Z 2026-04-01T02:00:00Z", spans.get("running-0"));
        assertEquals("2026-04-05T00:00:00Z 2026-04-05T02:00:00Z", spans.get("running-4"));
        assertEquals("2026-04-14T00:00:00Z 2026-04-14T01:00:00Z", spans.get("unseen-4"));
        assertEquals("2026-04-22T00:00:00Z 2026-04-22T03:00:00Z", spans.get("late-2"));
        assertHours("24", hours("2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z").get("restart-co"));
    }

    /**
     * A ledger that hangs (SIGSTOP: it accepts connections and never answers) under billing: the 10 s timeout
     * ends the calls, the breaker of the GPU-hours call opens, further reports fail fast, and billing's health
     * says the ledger is degraded. Once the ledger runs again, the breaker closes by itself — no report needed —
     * and the report is the same as before.
     */
    @Test
    @Order(4)
    void billingTripsItsBreakerOnAHangingLedgerAndRecoversByItself() throws Exception {
        HttpResponse<String> before = report("2026-01");
        assertEquals(200, before.statusCode(), before.body());
        assertTrue(before.body().contains("batch-co"), before.body());
        assertEquals("up", ledgerHealth().path("state").asText());

        long ledgerPid = suite.pid(Service.LEDGER).orElseThrow();
        signal("STOP", ledgerPid);
        try {
            // Ten reports at once: ten GPU-hours calls time out together and fill the breaker's window.
            List<CompletableFuture<HttpResponse<String>>> reports = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                reports.add(CompletableFuture.supplyAsync(() -> report("2026-01")));
            }
            for (CompletableFuture<HttpResponse<String>> r : reports) {
                HttpResponse<String> answer = r.get(90, TimeUnit.SECONDS);
                assertEquals(503, answer.statusCode(), answer.body());
                assertEquals("application/problem+json", answer.headers().firstValue("Content-Type").orElse(""));
            }
            JsonNode degraded = ledgerHealth();
            assertEquals("degraded", degraded.path("state").asText(), degraded.toString());
            assertEquals("open", degraded.path("gpuHours").asText(), degraded.toString());

            long t0 = System.nanoTime();
            assertEquals(503, report("2026-01").statusCode());
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(2), "an open breaker answers at once");
        } finally {
            signal("CONT", ledgerPid);
        }

        await("billing to see the ledger again").atMost(Duration.ofSeconds(BREAKER_DELAY_SECONDS + 60)).pollInterval(Duration.ofMillis(250))
                .until(() -> "up".equals(ledgerHealth().path("state").asText()));
        HttpResponse<String> after = report("2026-01");
        assertEquals(200, after.statusCode(), after.body());
        assertEquals(before.body(), after.body());
    }

    // --- the cluster's objects ---------------------------------------------------------------------------------

    /**
     * The collector's default, buffered usage path against the real ledger: three scrapes of one series in one
     * minute (0.2, 0.4 and 0.9), the second sent twice, are answered at once and reach the minute rollup exactly
     * once each: 3 samples, sum 1.5, max 0.9.
     */
    @Test
    @Order(5)
    void bufferedUsagePushesReachTheRollupsOnceEach() throws Exception {
        Instant minute = Instant.parse("2026-02-03T10:00:00Z");
        String[] values = {"0.2", "0.4", "0.9"};
        for (int i = 0; i < 4; i++) {
            int scrape = i == 3 ? 1 : i; // the last push repeats the second scrape
            String body = "DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"GPU-BUFFERED\",Hostname=\"" + NODE + "\"} "
                    + values[scrape] + " " + minute.plusSeconds(10L * scrape + 5).toEpochMilli() + "\n";
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(suite.url(Service.COLLECTOR)
                            + "/api/v1/ingest/dcgm?node=" + NODE + "&cluster=" + CLUSTER)).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(body)));
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(JSON.readTree(r.body()).path("buffered").asBoolean(), "the default path buffers: " + r.body());
        }
        String rollup = "SELECT %s FROM ledger.usage_minute WHERE cluster = '" + CLUSTER
                + "' AND gpu_uuid = 'GPU-BUFFERED' AND field = 'SM_ACTIVE' AND minute = '2026-02-03T10:00:00Z'";
        await("the buffered samples in the rollup").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> sqlCount(String.format(rollup, "coalesce(sum(samples), 0)")) == 3);
        assertEquals(1500, sqlCount(String.format(rollup, "round(sum(sum) * 1000)::bigint")));
        assertEquals(900, sqlCount(String.format(rollup, "round(max(max) * 1000)::bigint")));
        assertEquals(1, sqlCount(String.format(rollup, "count(*)")));
    }

    static Node node() {
        return new NodeBuilder().withNewMetadata().withName(NODE).withUid("node-" + NODE)
                .withCreationTimestamp("2026-01-01T00:00:00Z")
                .addToLabels("nvidia.com/gpu.product", MODEL).addToLabels("nvidia.com/gpu.memory", "81920")
                .addToLabels("nvidia.com/gpu.count", "8").endMetadata()
                .withNewStatus().addToCapacity("nvidia.com/gpu", new Quantity("8")).endStatus().build();
    }

    static Namespace namespace(String name, String tenant) {
        return new NamespaceBuilder().withNewMetadata().withName(name).withUid("ns-" + name)
                .withCreationTimestamp("2026-01-01T00:00:00Z").addToLabels("gpumeter.io/tenant", tenant)
                .endMetadata().build();
    }

    /** Steady pod {@code i}: scheduled at March 1st + i hours, holding one card for 30 minutes. */
    static Pod steadyPod(int i, Instant march) {
        Instant scheduled = march.plus(Duration.ofHours(i));
        return pod("steady", "steady-" + i, scheduled, scheduled.plus(Duration.ofMinutes(30)));
    }

    /** A pod holding one whole card of {@link #NODE} from {@code scheduled}; finished when {@code finished} is set. */
    static Pod pod(String namespace, String name, Instant scheduled, Instant finished) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withUid("uid-" + namespace + "-" + name).withCreationTimestamp(scheduled.minusSeconds(5).toString())
                .endMetadata()
                .withNewSpec().withNodeName(NODE).withSchedulerName("default-scheduler").addNewContainer()
                .withName("main").withImage("trainer").withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1")).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("PodScheduled").withStatus("True")
                .withLastTransitionTime(scheduled.toString()).endCondition()
                .addToContainerStatuses(new ContainerStatusBuilder().withName("main").withReady(true)
                        .withState(new ContainerStateBuilder().withNewRunning().withStartedAt(scheduled.toString())
                                .endRunning().build()).build())
                .endStatus().build();
        return finished == null ? pod : finished(pod, finished);
    }

    /** The same pod with its container terminated at {@code at}. */
    static Pod finished(Pod pod, Instant at) {
        String started = pod.getStatus().getConditions().get(0).getLastTransitionTime();
        return new PodBuilder(pod).editStatus().withPhase("Succeeded")
                .withContainerStatuses(new ContainerStatusBuilder().withName("main").withReady(false)
                        .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(0)
                                .withReason("Completed").withStartedAt(started).withFinishedAt(at.toString())
                                .endTerminated().build()).build())
                .endStatus().build();
    }

    /** Watch events for the replay: a namespace of tenant batch-co, the node, and {@code pods} pods of 6 minutes. */
    static String januaryStream(int pods) {
        KubernetesSerialization serialization = new KubernetesSerialization();
        StringBuilder out = new StringBuilder();
        out.append(event(serialization, namespace("batch", "batch-co"))).append('\n');
        out.append(event(serialization, node())).append('\n');
        Instant january = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < pods; i++) {
            Instant scheduled = january.plus(Duration.ofMinutes(10L * i));
            Pod pod = pod("batch", "batch-" + i, scheduled, scheduled.plus(Duration.ofMinutes(6)));
            pod.getMetadata().setResourceVersion(Integer.toString(1000 + i));
            out.append(event(serialization, pod)).append('\n');
        }
        return out.toString();
    }

    private static String event(KubernetesSerialization serialization, io.fabric8.kubernetes.api.model.HasMetadata object) {
        if (object.getMetadata().getResourceVersion() == null) {
            object.getMetadata().setResourceVersion("1");
        }
        return "{\"type\":\"ADDED\",\"object\":" + serialization.asJson(object) + "}";
    }

    // --- reading the suite --------------------------------------------------------------------------------------

    static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.header("Authorization", "Bearer " + token).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static HttpResponse<String> get(Service service, String pathAndQuery) {
        return send(HttpRequest.newBuilder(URI.create(suite.url(service) + pathAndQuery)).timeout(Duration.ofSeconds(90)).GET());
    }

    /** A GET on the service's management port, where /q/health and /q/metrics are served. */
    static HttpResponse<String> management(Service service, String path) {
        return send(HttpRequest.newBuilder(URI.create(suite.managementUrl(service) + path)).timeout(Duration.ofSeconds(90)).GET());
    }

    static HttpResponse<String> replay(String body, String cluster) {
        return send(HttpRequest.newBuilder(URI.create(suite.url(Service.COLLECTOR) + "/api/v1/ingest/kubernetes?cluster=" + cluster))
                .timeout(Duration.ofMinutes(3)).header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    }

    /** Sends a replay again while the answer is 503, as a client told "send it again" does. */
    static HttpResponse<String> replayUntilTaken(String body, String cluster) throws InterruptedException {
        HttpResponse<String> answer = await("the collector to take the replay").atMost(Duration.ofSeconds(60))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(1))
                .until(() -> replay(body, cluster), sent -> sent.statusCode() != 503);
        assertEquals(200, answer.statusCode(), answer.body());
        return answer;
    }

    static HttpResponse<String> report(String month) {
        return get(Service.BILLING, "/api/v1/reports/monthly?month=" + month + "&format=csv");
    }

    static JsonNode health(Service service) {
        try {
            return JSON.readTree(management(service, "/q/health/ready").body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The data of billing's readiness check {@code ledger}. */
    static JsonNode ledgerHealth() {
        for (JsonNode check : health(Service.BILLING).path("checks")) {
            if ("ledger".equals(check.path("name").asText())) {
                return check.path("data");
            }
        }
        throw new AssertionError("billing reports no ledger health check");
    }

    /** Allocated card-hours per tenant in [from, to). */
    static Map<String, BigDecimal> hours(String from, String to) throws IOException {
        HttpResponse<String> answer = get(Service.LEDGER, "/api/v1/gpu-hours?from=" + from + "&to=" + to + "&groupBy=tenant");
        assertEquals(200, answer.statusCode(), answer.body());
        Map<String, BigDecimal> out = new TreeMap<>();
        JSON.readTree(answer.body()).forEach(r -> out.put(r.path("key").asText(), r.path("allocatedGpuHours").decimalValue()));
        return out;
    }

    static void assertHours(String expected, BigDecimal actual) {
        assertNotNull(actual, "no hours for the tenant");
        assertTrue(new BigDecimal(expected).subtract(actual).abs().compareTo(new BigDecimal("0.000001")) < 0,
                "expected " + expected + " h, got " + actual);
    }

    /** {@code gpumeter_collector_buffer_facts} from the collector's /q/metrics. */
    static int bufferedFacts() {
        HttpResponse<String> metrics = management(Service.COLLECTOR, "/q/metrics");
        for (String line : metrics.body().split("\n")) {
            if (line.startsWith("gpumeter_collector_buffer_facts")) {
                return (int) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no gpumeter_collector_buffer_facts gauge on the collector's /q/metrics");
    }

    static Connection jdbc() throws SQLException {
        DatabaseConnection db = suite.database().orElseThrow();
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }

    static long sqlCount(String sql) {
        try (Connection c = jdbc(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static long podFacts(String namespace) {
        return sqlCount("SELECT count(*) FROM ledger.pod_fact WHERE cluster = '" + CLUSTER + "' AND namespace = '"
                + namespace + "'");
    }

    static String clusterFacts(String cluster) {
        return "SELECT count(*) FROM ledger.pod_fact WHERE cluster = '" + cluster + "'";
    }

    static String namespaceSegments(String namespace) {
        return "SELECT count(*) FROM ledger.allocation_segment WHERE cluster = '" + CLUSTER + "' AND namespace = '"
                + namespace + "'";
    }

    static long openSegments(String namespace) {
        return sqlCount(namespaceSegments(namespace) + " AND seg_end IS NULL");
    }

    /** True while some session has written to the ledger's fact tables in a transaction not yet committed. */
    static boolean ledgerWriting() {
        return sqlCount("SELECT count(*) FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()"
                + " AND query ~* '(pod_fact|allocation_segment|namespace_fact|node_fact)'") > 0;
    }

    /** Sends a signal to a process this test started (the JDK can only terminate or kill). */
    static void signal(String name, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -" + name + " " + pid).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + name + " " + pid);
    }
}
