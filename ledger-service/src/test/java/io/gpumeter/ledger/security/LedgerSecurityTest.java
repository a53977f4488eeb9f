package io.gpumeter.ledger.security;

import io.gpumeter.common.security.Tokens;
import io.gpumeter.common.testing.AccessCoverage;
import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ledger with authentication on: tokens verified against the test key, roles checked per family, and a
 * tenant token held to its own rows.
 */
@QuarkusTest
@TestProfile(AuthEnabled.class)
@WithTestResource(EmbeddedPostgresResource.class)
class LedgerSecurityTest {

    /** Pod p1 (tenant acme, 0.5 card) 10:00-12:00 and pod p2 (tenant globex, 0.5 card) 11:00-12:00 on one card. */
    static final String BATCH = """
            {"cluster":"sec",
             "namespaces":[
              {"name":"a","uid":"ns-a","resourceVersion":"1","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
               "labels":{"gpumeter.io/tenant":"acme"},"labelTimes":{"gpumeter.io/tenant":"2026-04-01T00:00:00Z"}},
              {"name":"g","uid":"ns-g","resourceVersion":"2","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
               "labels":{"gpumeter.io/tenant":"globex"},"labelTimes":{"gpumeter.io/tenant":"2026-04-01T00:00:00Z"}}],
             "nodes":[
              {"name":"sec-node","uid":"n1","resourceVersion":"3","type":"ADDED","observedAt":"2026-05-01T00:00:00Z",
               "labels":{"nvidia.com/gpu.product":"NVIDIA-H100-80GB-HBM3","nvidia.com/gpu.memory":"81920"},
               "gpus":[{"uuid":"GPU-sec","model":"NVIDIA-H100-80GB-HBM3","memoryMib":163840,"cores":100,"splitCount":10}]}],
             "pods":[
              {"uid":"p1","namespace":"a","name":"train","resourceVersion":"10","type":"MODIFIED","observedAt":"2026-05-03T12:00:01Z",
               "scheduledAt":"2026-05-03T10:00:00Z","nodeName":"sec-node","allTerminated":true,"lastFinishedAt":"2026-05-03T12:00:00Z",
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":8192,"nvidia.com/gpucores":50},
               "vgpus":[{"container":0,"uuid":"GPU-sec","type":"NVIDIA","memoryMib":8192,"cores":50}],"hamiBindPhase":"success","hamiNode":"sec-node"},
              {"uid":"p2","namespace":"g","name":"infer","resourceVersion":"11","type":"MODIFIED","observedAt":"2026-05-03T12:00:01Z",
               "scheduledAt":"2026-05-03T11:00:00Z","nodeName":"sec-node","allTerminated":true,"lastFinishedAt":"2026-05-03T12:00:00Z",
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":8192,"nvidia.com/gpucores":50},
               "vgpus":[{"container":0,"uuid":"GPU-sec","type":"NVIDIA","memoryMib":8192,"cores":50}],"hamiBindPhase":"success","hamiNode":"sec-node"}]}
            """;

    private static final String FROM = "2026-05-01T00:00:00Z";
    private static final String TO = "2026-06-01T00:00:00Z";
    private static boolean loaded;

    @BeforeEach
    void load() {
        if (!loaded) {
            given().header("Authorization", TestTokens.serviceBearer("ledger")).contentType(ContentType.JSON).body(BATCH)
                    .post("/api/v1/facts").then().statusCode(200);
            loaded = true;
        }
    }

    @Test
    void withoutATokenTheApiAnswers401ProblemAndHealthStaysOpen() {
        given().queryParam("from", FROM).queryParam("to", TO).get("/api/v1/gpu-hours").then()
                .statusCode(401).contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer").body("status", equalTo(401));
        Management.given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void garbageForeignAndUnsignedTokensAre401() {
        String foreign = Tokens.mint(Tokens.newKeyPair().getPrivate(), "x", List.of("admin"), Duration.ofMinutes(5));
        for (String auth : List.of("Bearer not-a-jwt", "Bearer " + foreign, "Basic YWRtaW46YWRtaW4=")) {
            given().header("Authorization", auth).queryParam("from", FROM).queryParam("to", TO)
                    .get("/api/v1/gpu-hours").then().statusCode(401).contentType("application/problem+json")
                    .body("detail", containsString("token"));
        }
    }

    @Test
    void aServiceTokenMustBeAddressedToTheLedgerAndPeoplesTokensNeedNoAudience() {
        String collector = TestTokens.serviceBearer("ledger", "slo");
        given().header("Authorization", collector).queryParam("from", FROM).queryParam("to", TO)
                .get("/api/v1/gpu-hours").then().statusCode(200);
        for (String auth : List.of(TestTokens.serviceBearer("slo", "billing"), TestTokens.bearer("service"))) {
            given().header("Authorization", auth).contentType(ContentType.JSON).body(BATCH.replace("\"p1\"", "\"p8\""))
                    .post("/api/v1/facts").then().statusCode(403).contentType("application/problem+json")
                    .body("detail", containsString("not to 'ledger'"));
        }
        for (String person : List.of("admin", "operator", "reader")) {
            given().header("Authorization", TestTokens.bearer(person)).queryParam("from", FROM).queryParam("to", TO)
                    .get("/api/v1/gpu-hours").then().statusCode(200);
        }
        assertEquals(Map.of("acme", 1.0f, "globex", 0.5f), tenantHours(TestTokens.bearer("reader"), null),
                "the refused service tokens stored nothing");
    }

    @Test
    void tokensLivingLongerThanTheMaximumOrWithoutExpiryAre401() {
        for (String auth : List.of(TestTokens.bearer(Duration.ofDays(31), "admin"), TestTokens.bearerWithoutExpiry("admin"))) {
            given().header("Authorization", auth).queryParam("from", FROM).queryParam("to", TO)
                    .get("/api/v1/gpu-hours").then().statusCode(401).contentType("application/problem+json")
                    .header("WWW-Authenticate", "Bearer");
        }
        given().header("Authorization", TestTokens.bearer(Duration.ofDays(31), "reader")).get("/api/v1/fragmentation")
                .then().statusCode(401).body("detail", containsString("gpumeter.auth.max-token-lifetime"));
        given().header("Authorization", TestTokens.bearer(Duration.ofDays(30), "reader")).queryParam("from", FROM)
                .queryParam("to", TO).get("/api/v1/gpu-hours").then().statusCode(200);
    }

    @Test
    void anIngestTokenNeitherReadsNorFeedsTheLedger() {
        given().header("Authorization", TestTokens.bearer("ingest")).queryParam("from", FROM).queryParam("to", TO)
                .get("/api/v1/gpu-hours").then().statusCode(403).contentType("application/problem+json");
        given().header("Authorization", TestTokens.bearer("ingest")).contentType(ContentType.JSON).body(BATCH)
                .post("/api/v1/facts").then().statusCode(403);
        given().header("Authorization", TestTokens.bearer("ingest", "tenant:acme")).queryParam("from", FROM)
                .queryParam("to", TO).get("/api/v1/gpu-hours").then().statusCode(403);
    }

    @Test
    void aReaderReadsEveryTenantButCannotWrite() {
        Map<String, Float> hours = tenantHours(TestTokens.bearer("reader"), null);
        assertEquals(Map.of("acme", 1.0f, "globex", 0.5f), hours);
        String before = given().header("Authorization", TestTokens.bearer("reader")).queryParam("from", FROM)
                .queryParam("to", TO).get("/api/v1/gpu-hours").asString();
        given().header("Authorization", TestTokens.bearer("reader")).contentType(ContentType.JSON)
                .body(BATCH.replace("\"p1\"", "\"p9\"")).post("/api/v1/facts").then()
                .statusCode(403).contentType("application/problem+json").body("detail", containsString("reader"));
        String after = given().header("Authorization", TestTokens.bearer("admin")).queryParam("from", FROM)
                .queryParam("to", TO).get("/api/v1/gpu-hours").asString();
        assertEquals(before, after, "a refused write stores nothing");
    }

    @Test
    void aTenantTokenSeesOnlyItsOwnRows() {
        assertEquals(Map.of("acme", 1.0f), tenantHours(TestTokens.bearer("tenant:acme"), null));
        assertEquals(Map.of("acme", 1.0f), tenantHours(TestTokens.bearer("tenant:acme"), "acme"));
        assertEquals(Map.of("globex", 0.5f), tenantHours(TestTokens.bearer("tenant:globex"), null));
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("at", "2026-05-03T11:30:00Z")
                .get("/api/v1/gpus/GPU-sec/occupants").then().statusCode(200).body("pod", contains("train"));
        given().header("Authorization", TestTokens.bearer("tenant:globex")).queryParam("at", "2026-05-03T11:30:00Z")
                .get("/api/v1/nodes/sec-node/occupants").then().statusCode(200).body("pod", contains("infer"));
        given().header("Authorization", TestTokens.bearer("tenant:globex")).queryParam("at", "2026-05-03T10:30:00Z")
                .get("/api/v1/gpus/GPU-sec/occupants").then().statusCode(200).body("$", empty());
    }

    @Test
    void aTenantReadsTheVolcanoJobsOfItsOwnNamespacesOnly() {
        given().header("Authorization", TestTokens.serviceBearer("ledger")).contentType(ContentType.JSON).body("""
                {"cluster":"sec","volcanoJobs":[
                  {"uid":"vj-g","namespace":"g","name":"globex-train","resourceVersion":"7","type":"MODIFIED",
                   "observedAt":"2026-05-03T12:00:01Z","createdAt":"2026-05-03T10:00:00Z","queue":"default",
                   "phase":"Completed","phaseChangedAt":"2026-05-03T12:00:00Z","retryCount":0}]}""")
                .post("/api/v1/facts/governance").then().statusCode(200);
        var window = Map.of("from", FROM, "to", TO, "cluster", "sec");
        given().header("Authorization", TestTokens.bearer("tenant:globex")).queryParams(window).get("/api/v1/volcano-jobs")
                .then().statusCode(200).body("key", contains("default")).body("[0].jobs.tenant", contains("globex"));
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParams(window).get("/api/v1/volcano-jobs")
                .then().statusCode(200).body("$", empty());
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParams(window).queryParam("tenant", "globex")
                .get("/api/v1/volcano-jobs").then().statusCode(403).contentType("application/problem+json")
                .body("field", equalTo("tenant"));
        given().header("Authorization", TestTokens.bearer("reader")).queryParams(window).get("/api/v1/volcano-jobs")
                .then().statusCode(200).body("[0].jobs.name", contains("globex-train"));
    }

    @Test
    void theFleetsOccupantsShowATenantOnlyItsOwnRowsAndTheBulkReadsAreForTheFleet() {
        given().header("Authorization", TestTokens.bearer("reader")).queryParam("at", "2026-05-03T11:30:00Z")
                .queryParam("cluster", "sec").get("/api/v1/fleet/occupants").then().statusCode(200)
                .body("pod", contains("train", "infer"));
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("at", "2026-05-03T11:30:00Z")
                .queryParam("cluster", "sec").get("/api/v1/fleet/occupants").then().statusCode(200)
                .body("pod", contains("train"));
        given().header("Authorization", TestTokens.bearer("tenant:globex")).queryParam("at", "2026-05-03T11:30:00Z")
                .queryParam("node", "sec-node").get("/api/v1/fleet/occupants").then().statusCode(200)
                .body("pod", contains("infer")).body("tenant", contains("globex"));
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("at", "2026-05-03T11:30:00Z")
                .queryParam("tenant", "globex").get("/api/v1/fleet/occupants").then().statusCode(403)
                .contentType("application/problem+json").body("field", equalTo("tenant"));
        // the layout shows every unit on the cards, whoever holds them: a fleet reader's, never a tenant's
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("at", "2026-05-03T11:30:00Z")
                .queryParam("layout", "true").get("/api/v1/fleet/occupants").then().statusCode(403)
                .contentType("application/problem+json").body("field", equalTo("tenant"))
                .body("detail", containsString("may not read fleet-wide figures"));
        given().header("Authorization", TestTokens.bearer("reader")).queryParam("at", "2026-05-03T11:30:00Z")
                .queryParam("cluster", "sec").queryParam("layout", "true").get("/api/v1/fleet/occupants").then()
                .statusCode(200).body("nodes[0].gpus.occupants.pod.flatten()", contains("train", "infer"));
        String holdings = "{\"from\":\"2026-05-03T10:00:00Z\",\"to\":\"2026-05-03T12:00:00Z\",\"cluster\":\"sec\","
                + "\"pods\":[{\"namespace\":\"a\",\"pod\":\"train\"},{\"namespace\":\"g\",\"pod\":\"infer\"}]}";
        String usage = "{\"from\":\"2026-05-03T10:00:00Z\",\"to\":\"2026-05-03T12:00:00Z\",\"gpus\":[\"GPU-sec\"]}";
        String onCards = "{\"from\":\"2026-05-03T10:00:00Z\",\"to\":\"2026-05-03T12:00:00Z\",\"cluster\":\"sec\",\"gpus\":[\"GPU-sec\"]}";
        for (String token : List.of(TestTokens.bearer("tenant:acme"), TestTokens.bearer("ingest"))) {
            given().header("Authorization", token).contentType(ContentType.JSON).body(holdings).post("/api/v1/holdings")
                    .then().statusCode(403).contentType("application/problem+json");
            given().header("Authorization", token).contentType(ContentType.JSON).body(usage).post("/api/v1/usage/series")
                    .then().statusCode(403).contentType("application/problem+json");
            given().header("Authorization", token).contentType(ContentType.JSON).body(onCards).post("/api/v1/card-holdings")
                    .then().statusCode(403).contentType("application/problem+json");
            given().header("Authorization", token).contentType(ContentType.JSON).body(holdings).post("/api/v1/pod-queues")
                    .then().statusCode(403).contentType("application/problem+json");
        }
        for (String token : List.of(TestTokens.bearer("reader"), TestTokens.bearer("operator"), TestTokens.serviceBearer("ledger"))) {
            given().header("Authorization", token).contentType(ContentType.JSON).body(holdings).post("/api/v1/holdings")
                    .then().statusCode(200).body("pod", contains("train", "infer"))
                    .body("[1].units[0].from", equalTo("2026-05-03T11:00:00Z"));
            given().header("Authorization", token).contentType(ContentType.JSON).body(usage).post("/api/v1/usage/series")
                    .then().statusCode(200).body("gpuUuid", contains("GPU-sec"));
            given().header("Authorization", token).contentType(ContentType.JSON).body(onCards).post("/api/v1/card-holdings")
                    .then().statusCode(200).body("[0].units.occupant.pod", contains("train", "infer"));
            given().header("Authorization", token).contentType(ContentType.JSON).body(holdings).post("/api/v1/pod-queues")
                    .then().statusCode(200).body("pod", contains("train", "infer"));
        }
    }

    @Test
    void askingForAnotherTenantIs403NotAnEmpty200() {
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("from", FROM).queryParam("to", TO)
                .queryParam("tenant", "globex").get("/api/v1/gpu-hours").then()
                .statusCode(403).contentType("application/problem+json").body("field", equalTo("tenant"));
        given().header("Authorization", TestTokens.bearer("tenant:acme", "tenant:globex")).queryParam("from", FROM)
                .queryParam("to", TO).get("/api/v1/gpu-hours").then().statusCode(403);
    }

    @Test
    void fleetWideFiguresAndIntakeRefuseTenantTokens() {
        given().header("Authorization", TestTokens.bearer("tenant:acme")).get("/api/v1/fragmentation").then()
                .statusCode(403).contentType("application/problem+json");
        given().header("Authorization", TestTokens.bearer("tenant:acme")).contentType(ContentType.JSON).body(BATCH)
                .post("/api/v1/facts").then().statusCode(403);
        given().header("Authorization", TestTokens.bearer("operator")).contentType(ContentType.JSON).body(BATCH)
                .post("/api/v1/facts").then().statusCode(403);
    }

    @Test
    void longListsComeInPages() {
        String admin = TestTokens.bearer("admin");
        var first = given().header("Authorization", admin).queryParam("at", "2026-05-03T11:30:00Z").queryParam("limit", 1)
                .get("/api/v1/nodes/sec-node/occupants").then().statusCode(200)
                .header("X-Total-Count", "2").body("pod", contains("train")).extract();
        String next = first.header("Link");
        assertTrue(next.contains("offset=1") && next.endsWith("rel=\"next\""), next);
        given().header("Authorization", admin).queryParam("at", "2026-05-03T11:30:00Z").queryParam("limit", 1)
                .queryParam("offset", 1).get("/api/v1/nodes/sec-node/occupants").then().statusCode(200)
                .header("X-Total-Count", "2").header("Link", org.hamcrest.Matchers.nullValue()).body("pod", contains("infer"));
        for (String bad : List.of("0", "10001", "-1", "x")) {
            given().header("Authorization", admin).queryParam("limit", bad).get("/api/v1/nodes/sec-node/occupants")
                    .then().statusCode(400).contentType("application/problem+json").body("field", equalTo("limit"));
        }
    }

    @Test
    void everyLedgerOperationBelongsToANamedFamily() {
        String openApi = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().asString();
        assertTrue(AccessCoverage.operations(openApi) > 20, "the OpenAPI document lists the ledger's operations");
        assertEquals(List.of(), AccessCoverage.uncovered(openApi));
    }

    private static Map<String, Float> tenantHours(String auth, String tenant) {
        var request = given().header("Authorization", auth).queryParam("from", FROM).queryParam("to", TO)
                .queryParam("groupBy", "tenant");
        if (tenant != null) {
            request.queryParam("tenant", tenant);
        }
        List<Map<String, Object>> rows = request.get("/api/v1/gpu-hours").then().statusCode(200)
                .extract().jsonPath().getList("$");
        Map<String, Float> out = new java.util.TreeMap<>();
        rows.forEach(r -> out.put(((Map<?, ?>) r.get("group")).get("tenant").toString(),
                ((Number) r.get("allocatedGpuHours")).floatValue()));
        return out;
    }
}
