package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.service.MigBooks;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MIG consistency of cluster "migc" (no other test writes there), grace 10 min, instances stale 5 min after their last
 * report. T is 2026-05-04T00:00Z; worked out by hand:
 * <pre>
 * mig-a  two A100-80GB, mixed strategy. T all-disabled (success), allocatable nvidia.com/gpu 2: agree.
 *        T+1h all-1g.10gb, pending: the MIG manager at work, not judged.
 *        T+1h05 success, status: no MIG device                      -> disagree from 01:05
 *        T+1h40 status: nvidia.com/mig-1g.10gb 14                  -> agree: mig-inconsistent 01:05 -> 01:40 (2100 s)
 *        dcgm-exporter reports 7 1g.10gb instances on GPU-a1 from 01:41: they agree too.
 * mig-b  one A100-80GB, all-balanced (success), allocatable 2x1g.10gb+2g.20gb+3g.40gb: agree; dcgm-exporter reports
 *        GPU-b1 with two 3g.40gb instances 02:00 -> 02:30          -> disagree from 02:00; the instances stop counting
 *        at 02:35, and the allocatable devices agree: mig-inconsistent 02:00 -> 02:35.
 * mig-u  names "team-x-layout", which no file names: the GPU stack read says the layout is unknown; no incident.
 * mig-r  disagrees from 9 min 57 s before the test runs: no incident yet, due when the grace runs out; derived again
 *        then without any new fact, it is open.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class MigConsistencyResourceTest {

    static final String CLUSTER = "migc";
    static final Instant T = Instant.parse("2026-05-04T00:00:00Z");

    @Inject
    MigBooks books;

    @Inject
    Pool pool;

    static Instant at(int minutes) {
        return T.plus(Duration.ofMinutes(minutes));
    }

    static String labels(Map<String, String> labels) {
        return labels.entrySet().stream().map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    static Map<String, String> gfd(String config, String state, int cards) {
        return Map.of("nvidia.com/mig.config", config, "nvidia.com/mig.config.state", state,
                "nvidia.com/mig.strategy", "mixed", "nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB",
                "nvidia.com/gpu.count", String.valueOf(cards));
    }

    static String node(String name, int rv, Instant observed, Map<String, String> labels) {
        return "{\"name\":\"" + name + "\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\","
                + "\"observedAt\":\"" + observed + "\",\"labels\":" + labels(labels) + ",\"gpus\":[]}";
    }

    static String status(String name, int rv, Instant observed, Map<String, String> labels, String allocatable) {
        return "{\"name\":\"" + name + "\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\","
                + "\"observedAt\":\"" + observed + "\",\"createdAt\":\"" + T.minus(Duration.ofDays(30)) + "\","
                + "\"capacity\":" + allocatable + ",\"allocatable\":" + allocatable + ",\"unschedulable\":false,\"taints\":[],"
                + "\"gpuLabels\":" + labels(labels) + ",\"suiteAnnotations\":{}}";
    }

    static String instance(String node, String gpu, String id, String profile, Instant observed) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"node\":\"" + node + "\",\"scope\":\"MIG_INSTANCE\",\"scopeKey\":\"" + id
                + "\",\"migProfile\":\"" + profile + "\",\"field\":\"GR_ENGINE_ACTIVE\",\"value\":0.5,\"at\":\"" + observed + "\"}";
    }

    static void facts(String... nodes) {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\",\"nodes\":[" + String.join(",", nodes) + "]}")
                .post("/api/v1/facts").then().statusCode(200);
    }

    static void statuses(String... statuses) {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\",\"nodeStatuses\":["
                + String.join(",", statuses) + "]}").post("/api/v1/facts/governance").then().statusCode(200);
    }

    static void usage(List<String> samples) {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);
    }

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        // mig-a: statuses first, label versions after: the incidents follow the versions, not their arrival
        Map<String, String> disabled = gfd("all-disabled", "success", 2);
        Map<String, String> pending = gfd("all-1g.10gb", "pending", 2);
        Map<String, String> applied = gfd("all-1g.10gb", "success", 2);
        statuses(status("mig-a", 11, T, disabled, "{\"nvidia.com/gpu\":2}"),
                status("mig-a", 31, at(65), applied, "{\"nvidia.com/gpu\":0}"),
                status("mig-a", 40, at(100), applied, "{\"nvidia.com/gpu\":0,\"nvidia.com/mig-1g.10gb\":14}"));
        facts(node("mig-a", 10, T, disabled), node("mig-a", 20, at(60), pending), node("mig-a", 30, at(65), applied));
        List<String> seven = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            seven.add(instance("mig-a", "GPU-a1", String.valueOf(7 + i), "1g.10gb", at(101)));
            seven.add(instance("mig-a", "GPU-a1", String.valueOf(7 + i), "1g.10gb", at(103)));
        }
        usage(seven);

        Map<String, String> balanced = gfd("all-balanced", "success", 1);
        statuses(status("mig-b", 11, T, balanced,
                "{\"nvidia.com/mig-1g.10gb\":2,\"nvidia.com/mig-2g.20gb\":1,\"nvidia.com/mig-3g.40gb\":1}"));
        List<String> wrong = new ArrayList<>();
        for (int minute = 120; minute <= 150; minute += 1) {
            wrong.add(instance("mig-b", "GPU-b1", "1", "3g.40gb", at(minute)));
            wrong.add(instance("mig-b", "GPU-b1", "2", "3g.40gb", at(minute)));
        }
        // delivered twice, the second time in two halves: runs widen, they do not double
        usage(wrong);
        usage(wrong.subList(0, 30));
        usage(wrong.subList(30, wrong.size()));

        statuses(status("mig-u", 11, T, gfd("team-x-layout", "success", 2), "{\"nvidia.com/mig-3g.40gb\":4}"));
    }

    static ValidatableResponse incidents(String node) {
        return given().queryParam("from", T.minus(Duration.ofDays(1)).toString()).queryParam("to", T.plus(Duration.ofDays(1)).toString())
                .queryParam("cluster", CLUSTER).queryParam("cause", "mig-inconsistent").get("/api/v1/failures/incidents")
                .then().statusCode(200).body("findAll { it.node == '" + node + "' }", hasSize(1)).root("find { it.node == '" + node + "' }");
    }

    @Test
    void theAllocatableDevicesFollowingLateIsAnIncidentUntilTheyDo() {
        incidents("mig-a").body("cause", equalTo("mig-inconsistent")).body("rootCauseClass", equalTo("data-plane"))
                .body("scope", equalTo("mig"))
                .body("startedAt", equalTo("2026-05-04T01:05:00Z")).body("recoveredAt", equalTo("2026-05-04T01:40:00Z"))
                .body("repairSeconds", equalTo(2100))
                .body("evidence", equalTo("nvidia.com/mig.config 'all-1g.10gb' expects per card 7x1g.10gb or 4x1g.10gb"
                        + " against seen: allocatable no MIG device (mixed strategy)"));
    }

    @Test
    void instancesDcgmReportsAgainstTheLayoutUntilTheyStopCounting() {
        incidents("mig-b").body("startedAt", equalTo("2026-05-04T02:00:00Z"))
                .body("recoveredAt", equalTo("2026-05-04T02:35:00Z"))
                .body("evidence", containsString("dcgm-exporter instances GPU-b1 2x3g.40gb"));
        long runs = pool.preparedQuery("SELECT count(*) AS n FROM ledger.gov_mig_instance_run WHERE cluster = $1 AND node = 'mig-b'")
                .execute(Tuple.of(CLUSTER)).await().indefinitely().iterator().next().getLong("n");
        assertEquals(2, runs, "one run per instance, however often and in whatever pieces it was delivered");
    }

    @Test
    void theGpuStackReadSaysWhatTheViewsShowAndAnUnknownLayoutIsUnknown() {
        given().queryParam("cluster", CLUSTER).queryParam("at", at(80).toString()).get("/api/v1/nodes/mig-a/gpu-stack")
                .then().statusCode(200).body("mig.layout", equalTo("all-1g.10gb")).body("mig.known", equalTo(true))
                .body("mig.verdict", equalTo("DISAGREE")).body("mig.allocatable", equalTo(Map.of()))
                .body("mig.expected", equalTo(List.of(Map.of("1g.10gb", 7), Map.of("1g.10gb", 4))))
                .body("mig.instances", nullValue());
        given().queryParam("cluster", CLUSTER).queryParam("at", at(102).toString()).get("/api/v1/nodes/mig-a/gpu-stack")
                .then().statusCode(200).body("mig.verdict", equalTo("AGREE"))
                .body("mig.allocatable", equalTo(Map.of("1g.10gb", 14)))
                .body("mig.instances.GPU-a1", equalTo(Map.of("1g.10gb", 7)));
        given().queryParam("cluster", CLUSTER).queryParam("at", at(30).toString()).get("/api/v1/nodes/mig-u/gpu-stack")
                .then().statusCode(200).body("mig.layout", equalTo("team-x-layout")).body("mig.known", equalTo(false))
                .body("mig.verdict", equalTo("UNJUDGED")).body("mig.reason", containsString("unknown to the ledger"));
        given().queryParam("from", T.minus(Duration.ofDays(1)).toString()).queryParam("to", T.plus(Duration.ofDays(1)).toString())
                .queryParam("cluster", CLUSTER).get("/api/v1/failures/incidents").then().statusCode(200)
                .body("findAll { it.node == 'mig-u' }", hasSize(0));
    }

    @Test
    void theGraceRunningOutWithoutNewFactsOpensItWhenTheNodeIsDerivedAgain() {
        Instant began = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(10)).plusSeconds(3);
        statuses(status("mig-r", 11, began, gfd("all-3g.40gb", "success", 2), "{\"nvidia.com/mig-1g.10gb\":14}"));
        ValidatableResponse none = given().queryParam("open", "true").queryParam("cluster", CLUSTER)
                .queryParam("cause", "mig-inconsistent").get("/api/v1/failures/incidents").then().statusCode(200);
        none.body("findAll { it.node == 'mig-r' }", hasSize(0));
        OffsetDateTime due = pool.preparedQuery("SELECT due_at FROM ledger.gov_mig_recheck WHERE cluster = $1 AND node = 'mig-r'")
                .execute(Tuple.of(CLUSTER)).await().indefinitely().iterator().next().getOffsetDateTime("due_at");
        assertNotNull(due);
        assertEquals(began.plus(Duration.ofMinutes(10)), due.toInstant());
        // the grace runs out: the clock moves on past the recheck's due time
        TestClock.CLOCK.advance(Duration.between(Instant.now(), due.toInstant()).plusMillis(300));
        int derived;
        try {
            derived = books.recheckDue().await().indefinitely();
        } finally {
            TestClock.CLOCK.reset();
        }
        assertTrue(derived >= 1, "mig-r was due");
        given().queryParam("open", "true").queryParam("cluster", CLUSTER).queryParam("cause", "mig-inconsistent")
                .get("/api/v1/failures/incidents").then().statusCode(200)
                .body("findAll { it.node == 'mig-r' }.startedAt", contains(began.toString()))
                .body("find { it.node == 'mig-r' }.evidence", containsString("expects per card 2x3g.40gb"));
        long left = pool.preparedQuery("SELECT count(*) AS n FROM ledger.gov_mig_recheck WHERE cluster = $1 AND node = 'mig-r'")
                .execute(Tuple.of(CLUSTER)).await().indefinitely().iterator().next().getLong("n");
        assertEquals(0, left, "open, nothing but new facts can change it");
    }
}
