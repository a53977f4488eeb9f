package io.gpumeter.alert.rest;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.gpumeter.alert.review.InputsRedactionTest;
import io.gpumeter.alert.review.SloPlanReader;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.TestTokens;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Post-incident reviews against a stand-in ledger and embedded PostgreSQL, authentication on: every field of a body
 * is checked before anything is asked; an incident the ledger does not know is a 404; a review is stored once however
 * often it is sent, a changed one is the next version, and each keeps the triage answer as it was computed then; the
 * page escapes what tenants wrote; each prevention item exports as what a team applies (promtool checks the rule,
 * slo-service's own reader reads the plan); the incidents waiting for a review are listed and alerted on.
 */
@QuarkusTest
@TestProfile(AuthEnabled.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReviewResourceTest {

    @jakarta.inject.Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final String OPERATOR = TestTokens.bearer("operator");
    private static final String READER = TestTokens.bearer("reader");
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    static final String INCIDENT = "a1b2c3d4e5f6a7b8c9d0e1f2";
    static final String WAITING = "b2b2b2b2b2b2b2b2b2b2b2b2";
    static final String YOUNG = "c3c3c3c3c3c3c3c3c3c3c3c3";
    static final String OLD_OPEN = "d4d4d4d4d4d4d4d4d4d4d4d4";
    static final String RACED = "e5e5e5e5e5e5e5e5e5e5e5e5";
    static final Instant STARTED = NOW.minus(Duration.ofDays(2));
    /** No pod is named so, but the ledger serves what it was sent, and pages must show it as text. */
    static final String HOSTILE = "evil</td><script>alert(1)</script>|*x*";
    static final String COMMAND = "kubectl describe pod -n ml-team '" + HOSTILE + "' # ```";

    static String incident(String id, String pod, Instant started, boolean open) {
        ObjectNode i = JSON.createObjectNode().put("id", id).put("cluster", "c1").put("cause", "oom")
                .put("rootCauseClass", "workload").put("scope", "pod").put("node", "gpu-1").putNull("gpuPci")
                .put("gpuUuid", "GPU-1").put("namespace", "ml-team").put("pod", pod).put("startedAt", started.toString())
                .putNull("recoveredAt").putNull("endedAt").putNull("repairSeconds").put("open", open).put("occurrences", 1)
                .put("evidence", "OOMKilled, exit 137");
        i.putArray("changesBefore");
        return i.toString();
    }

    static String triage(String cause, String fact) throws IOException {
        Instant at = STARTED;
        Triage t = new Triage(new Triage.Subject(Triage.SubjectKind.POD, "c1", "ml-team", HOSTILE, "uid-1", "acme"), at,
                Symptom.OOM, "data-plane", cause, Confidence.HIGH, new Triage.Scope("POD", List.of(), 0),
                List.of(new Triage.ChangeRef("ch-1", at.minus(Duration.ofHours(3)), "driver", "gpu-1", "nvidia-driver",
                        "550.54.15", "560.35.03")),
                new Triage.Recurrence(1, at),
                List.of(new Triage.Evidence(at.minus(Duration.ofMinutes(2)), "usage", fact, COMMAND)),
                List.of(new Triage.Alternative("oom", "its own memory stayed at 9 GiB, under its 20 GiB grant")),
                List.of("usage of the card's pods"), null);
        return JSON.writeValueAsString(t);
    }

    /** The ledger's book: the reviewed incident, one waiting, one too young to wait, one open for a month. */
    static void ledger() throws IOException {
        FakeLedger.answer(FakeLedger.INCIDENTS + "/" + INCIDENT, incident(INCIDENT, HOSTILE, STARTED, true));
        FakeLedger.answer(FakeLedger.INCIDENTS + "/" + WAITING, incident(WAITING, "trainer-1", NOW.minus(Duration.ofDays(3)), false));
        FakeLedger.answer(FakeLedger.INCIDENTS + "/" + RACED, incident(RACED, "trainer-9", NOW.minus(Duration.ofDays(1)), false));
        // the 7-day look-back's read: all but the month-old one; the read of open ones: it and the reviewed one
        String reviewed = incident(INCIDENT, HOSTILE, STARTED, true);
        FakeLedger.incidents("[" + reviewed + "," + incident(WAITING, "trainer-1", NOW.minus(Duration.ofDays(3)), false) + ","
                        + incident(YOUNG, "trainer-2", NOW.minus(Duration.ofHours(2)), false) + "]",
                "[" + reviewed + "," + incident(OLD_OPEN, "trainer-3", NOW.minus(Duration.ofDays(30)), true) + "]");
        FakeLedger.answer("/api/v1/triage/diagnosis", triage("neighbour-memory-pressure",
                "the card's memory was full (80 GiB) while its own stayed under its grant <img src=x onerror=alert(1)>"));
        FakeLedger.answer("/api/v1/triage/inputs", JSON.writeValueAsString(InputsRedactionTest.inputs()));
    }

    static final String ALERT = "{\"kind\":\"ALERT_THRESHOLD\",\"alert\":\"GpuCardMemoryNearlyFull\","
            + "\"metric\":\"DCGM_FI_DEV_FB_USED\",\"matchers\":{\"Hostname\":\"gpu-1\",\"note\":\"say \\\"hi\\\" \\\\ {{ .x }}\"},"
            + "\"function\":\"max_over_time\",\"range\":\"5m\",\"aggregate\":\"max\",\"by\":[\"gpu\",\"Hostname\"],"
            + "\"threshold\":75000,\"for\":\"10m\",\"description\":\"The card {{ .Labels.gpu }} fills up.\"}";
    static final String POLICY = "{\"kind\":\"ADMISSION_POLICY\",\"policy\":\"MAX_REQUEST\",\"namespace\":\"ml-team\","
            + "\"resource\":\"nvidia.com/gpumem\",\"limit\":\"20000\"}";
    static final String ACCEPTANCE = "{\"kind\":\"ACCEPTANCE_ITEM\",\"cell\":{\"name\":\"shared\",\"workload\":\"trainer\","
            + "\"form\":\"HAMI\",\"selector\":{\"namespace\":\"ml-team\"}},\"assertion\":{\"name\":\"no neighbour OOM\","
            + "\"kind\":\"THRESHOLD\",\"metric\":\"FAILURE_RATE\",\"max\":0.01}}";
    static final String REGRESSION = "{\"kind\":\"REGRESSION_CASE\",\"note\":\"neighbour pressure, not its own growth\"}";
    static final String QUOTA = "{\"kind\":\"ADMISSION_POLICY\",\"policy\":\"RESOURCE_QUOTA\",\"namespace\":\"ml-team\","
            + "\"resource\":\"nvidia.com/gpu\",\"limit\":8}";
    static final String SUMMARY = "# Card full\\n<img src=x onerror=alert(1)> | a neighbour filled the card";

    static String body(String summary, String... items) {
        return "{\"rootCauseClass\":\"DATA_PLANE\",\"cause\":\"NEIGHBOUR_MEMORY_PRESSURE\",\"summary\":\"" + summary
                + "\",\"prevention\":[" + String.join(",", items) + "]}";
    }

    static final String REVIEW = body(SUMMARY, ALERT, POLICY, ACCEPTANCE, REGRESSION, QUOTA);

    static RequestSpecification as(String token) {
        return given().header("Authorization", token);
    }

    static Response post(String id, String body) {
        return as(OPERATOR).contentType("application/json").body(body).post("/api/v1/failures/incidents/" + id + "/review");
    }

    static String review(String id) {
        return "/api/v1/failures/incidents/" + id + "/review";
    }

    @org.junit.jupiter.api.BeforeAll
    static void showFailures() {
        io.restassured.RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @BeforeEach
    void book() throws IOException {
        FakeLedger.reset();
        ledger();
    }

    // --- validation ---------------------------------------------------------------------------------------------

    static Stream<Arguments> badBodies() {
        String item = "{\"kind\":\"ALERT_THRESHOLD\",\"alert\":\"A\",\"metric\":\"m\",\"threshold\":1";
        String policy = "{\"kind\":\"ADMISSION_POLICY\"";
        String cell = "\"cell\":{\"workload\":\"w\",\"form\":\"HAMI\",\"selector\":{\"namespace\":\"ml\"}}";
        String accept = "{\"kind\":\"ACCEPTANCE_ITEM\"," + cell + ",\"assertion\":";
        return Stream.of(
                Arguments.of("[]", "body"),
                Arguments.of("{\"cause\":\"oom\",\"summary\":\"s\",\"prevention\":[]}", "rootCauseClass"),
                Arguments.of("{\"rootCauseClass\":\"software\",\"cause\":\"oom\",\"summary\":\"s\",\"prevention\":[]}", "rootCauseClass"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"gremlins\",\"summary\":\"s\",\"prevention\":[]}", "cause"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"xid-0\",\"summary\":\"s\",\"prevention\":[]}", "cause"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":7,\"summary\":\"s\",\"prevention\":[]}", "cause"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"oom\",\"summary\":\"  \",\"prevention\":[]}", "summary"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"oom\",\"summary\":\"a\\u0000b\",\"prevention\":[]}", "summary"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"oom\",\"summary\":\"" + "s".repeat(4001)
                        + "\",\"prevention\":[]}", "summary"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"oom\",\"summary\":\"s\",\"prevention\":[],"
                        + "\"reviewer\":\"mallory\"}", "reviewer"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"oom\",\"summary\":\"s\",\"prevention\":[],"
                        + "\"severity\":\"low\"}", "severity"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"oom\",\"summary\":\"s\"}", "prevention"),
                Arguments.of("{\"rootCauseClass\":\"workload\",\"cause\":\"oom\",\"summary\":\"s\",\"prevention\":{}}", "prevention"),
                Arguments.of(body("s", Collections.nCopies(21, REGRESSION).toArray(String[]::new)), "prevention"),
                Arguments.of(body("s", "{\"alert\":\"A\"}"), "prevention[0].kind"),
                Arguments.of(body("s", "{\"kind\":\"BLAME\"}"), "prevention[0].kind"),
                Arguments.of(body("s", "\"ALERT_THRESHOLD\""), "prevention[0]"),
                Arguments.of(body("s", item.replace("\"m\"", "\"9bad\"") + "}"), "prevention[0].metric"),
                Arguments.of(body("s", item.replace("\"alert\":\"A\"", "\"alert\":\"a b\"") + "}"), "prevention[0].alert"),
                Arguments.of(body("s", item.replace("\"threshold\":1", "\"threshold\":\"high\"") + "}"), "prevention[0].threshold"),
                Arguments.of(body("s", item.replace(",\"threshold\":1", "") + "}"), "prevention[0].threshold"),
                Arguments.of(body("s", item + ",\"function\":\"rate\"}"), "prevention[0].range"),
                Arguments.of(body("s", item + ",\"function\":\"exec\",\"range\":\"5m\"}"), "prevention[0].function"),
                Arguments.of(body("s", item + ",\"function\":\"rate\",\"range\":\"0m\"}"), "prevention[0].range"),
                Arguments.of(body("s", item + ",\"matchers\":{\"__name__\":\"x\"}}"), "prevention[0].matchers.__name__"),
                Arguments.of(body("s", item + ",\"matchers\":{\"a\":\"x\\ny\"}}"), "prevention[0].matchers.a"),
                Arguments.of(body("s", item + ",\"by\":[\"node\"]}"), "prevention[0].by"),
                Arguments.of(body("s", item + ",\"for\":\"10 minutes\"}"), "prevention[0].for"),
                Arguments.of(body("s", item + ",\"comparison\":\"=~\"}"), "prevention[0].comparison"),
                Arguments.of(body("s", item + ",\"severity\":\"page\"}"), "prevention[0].severity"),
                Arguments.of(body("s", item + ",\"treshold\":2}"), "prevention[0].treshold"),
                Arguments.of(body("s", policy + "}"), "prevention[0].policy"),
                Arguments.of(body("s", policy + ",\"policy\":\"RESOURCE_QUOTA\",\"resource\":\"nvidia.com/gpu\",\"limit\":4}"),
                        "prevention[0].namespace"),
                Arguments.of(body("s", policy + ",\"policy\":\"MAX_REQUEST\",\"resource\":\"nvidia.com/gpu\",\"limit\":-1}"),
                        "prevention[0].limit"),
                Arguments.of(body("s", policy + ",\"policy\":\"MAX_REQUEST\",\"resource\":\"nvidia.com/gpu'); x\",\"limit\":1}"),
                        "prevention[0].resource"),
                Arguments.of(body("s", policy + ",\"policy\":\"MAX_REQUEST\",\"resource\":\"nvidia.com/gpu\",\"limit\":\"4'\"}"),
                        "prevention[0].limit"),
                Arguments.of(body("s", policy + ",\"policy\":\"EXCLUSIVE_RESOURCES\",\"resource\":\"nvidia.com/gpumem\","
                        + "\"otherResource\":\"nvidia.com/gpumem\"}"), "prevention[0].otherResource"),
                Arguments.of(body("s", policy + ",\"policy\":\"REQUIRE_SCHEDULER\",\"resource\":\"nvidia.com/gpumem\","
                        + "\"schedulerName\":\"Hami Scheduler\"}"), "prevention[0].schedulerName"),
                Arguments.of(body("s", policy + ",\"policy\":\"RESOURCE_QUOTA\",\"namespace\":\"ml\",\"resource\":\"nvidia.com/gpu\","
                        + "\"limit\":4,\"action\":\"WARN\"}"), "prevention[0].action"),
                Arguments.of(body("s", policy + ",\"policy\":\"MAX_REQUEST\",\"resource\":\"nvidia.com/gpu\",\"limit\":4,"
                        + "\"action\":\"SHOUT\"}"), "prevention[0].action"),
                Arguments.of(body("s", "{\"kind\":\"ACCEPTANCE_ITEM\",\"assertion\":{}}"), "prevention[0].cell"),
                Arguments.of(body("s", accept.replace("HAMI", "SHARED") + "{\"name\":\"a\",\"kind\":\"BLOCKED\"}}"),
                        "prevention[0].cell.form"),
                Arguments.of(body("s", accept.replace("{\"namespace\":\"ml\"}", "{}") + "{}}"), "prevention[0].cell.selector"),
                Arguments.of(body("s", accept.replace("\"cell\":{", "\"cell\":{\"name\":\"Cell One\",") + "{}}"),
                        "prevention[0].cell.name"),
                Arguments.of(body("s", accept + "{\"name\":\"a\",\"kind\":\"THRESHOLD\",\"metric\":\"P99\",\"maxMs\":5}}"),
                        "prevention[0].assertion.sli"),
                Arguments.of(body("s", accept + "{\"name\":\"a\",\"kind\":\"THRESHOLD\",\"metric\":\"P99\",\"sli\":\"TTFT\","
                        + "\"max\":5}}"), "prevention[0].assertion.max"),
                Arguments.of(body("s", accept + "{\"name\":\"a\",\"kind\":\"THRESHOLD\",\"metric\":\"THROUGHPUT\"}}"),
                        "prevention[0].assertion.max"),
                Arguments.of(body("s", accept + "{\"name\":\"a\",\"kind\":\"THRESHOLD\",\"metric\":\"FAILURE_RATE\",\"max\":0}}"),
                        "prevention[0].assertion.max"),
                Arguments.of(body("s", accept + "{\"name\":\"a\",\"kind\":\"RATIO\",\"metric\":\"FAILURE_RATE\",\"maxRatio\":2}}"),
                        "prevention[0].baseline"),
                Arguments.of(body("s", accept + "{\"name\":\"a\",\"kind\":\"BLOCKED\",\"namespace\":\"ml\",\"pod\":\"p\","
                        + "\"within\":\"5 minutes\"}}"), "prevention[0].assertion.within"),
                Arguments.of(body("s", accept + "{\"kind\":\"BLOCKED\"}}"), "prevention[0].assertion.name"),
                Arguments.of(body("s", "{\"kind\":\"REGRESSION_CASE\",\"note\":\"" + "n".repeat(501) + "\"}"), "prevention[0].note"),
                Arguments.of(body("s", REGRESSION, "{\"kind\":\"REGRESSION_CASE\",\"replay\":true}"), "prevention[1].replay"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badBodies")
    @Order(1)
    void everyBadFieldIsA400NamingItBeforeAnythingIsAsked(String body, String field) {
        post(INCIDENT, body).then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo(field));
        assertEquals(0, FakeLedger.calls("GET " + FakeLedger.INCIDENTS + "/*"), "the ledger is asked only for a whole review");
        as(READER).get(review(INCIDENT)).then().statusCode(404);
    }

    @Test
    @Order(2)
    void anIdThatCannotBeTheLedgersIsA400AndAnUnknownOneA404() {
        post("no such id!", REVIEW).then().statusCode(400).body("field", equalTo("id"));
        post("0000000000000000deadbeef", REVIEW).then().statusCode(404).contentType("application/problem+json")
                .body("field", equalTo("id")).body("detail", containsString("0000000000000000deadbeef"));
        as(READER).get(review("0000000000000000deadbeef")).then().statusCode(404).body("field", equalTo("id"));
        assertEquals(0, FakeLedger.calls("GET /api/v1/triage/diagnosis"));
    }

    @Test
    @Order(3)
    void onlyOperatorsAndAdminsReviewAndTenantsReadNone() {
        for (String role : List.of("reader", "service", "tenant:acme")) {
            as(TestTokens.bearer(role)).contentType("application/json").body(REVIEW).post(review(INCIDENT)).then()
                    .statusCode(403).contentType("application/problem+json");
        }
        as(TestTokens.bearer("tenant:acme")).get(review(INCIDENT)).then().statusCode(403);
        as(TestTokens.bearer("tenant:acme")).get("/api/v1/failures/incidents?reviewed=false").then().statusCode(403);
        given().contentType("application/json").body(REVIEW).post(review(INCIDENT)).then().statusCode(401);
    }

    // --- storing ----------------------------------------------------------------------------------------------------

    @Test
    @Order(4)
    void aReviewIsStoredOnceWithItsTriageFrozenAndAChangeIsTheNextVersion() throws IOException {
        JsonPath first = post(INCIDENT, REVIEW).then().statusCode(201)
                .header("Location", containsString(review(INCIDENT))).extract().jsonPath();
        assertEquals(1, first.getInt("version"));
        assertEquals("test", first.getString("reviewer"), "the token's subject signs the review");
        assertEquals("data-plane", first.getString("rootCauseClass"));
        assertEquals("neighbour-memory-pressure", first.getString("cause"));
        assertEquals("neighbour-memory-pressure", first.getString("triage.cause"));
        assertEquals(COMMAND, first.getString("triage.evidence[0].command"));
        assertEquals(HOSTILE, first.getString("incident.pod"));
        assertEquals(List.of(1, 2, 3, 4, 5), first.getList("prevention.n"));
        assertEquals("max by (gpu, Hostname) (max_over_time(DCGM_FI_DEV_FB_USED{Hostname=\"gpu-1\", "
                        + "note=\"say \\\"hi\\\" \\\\ {{ .x }}\"}[5m])) > 75000", first.getString("prevention[0].expr"));
        assertTrue(first.getInt("inputs.facts") > 0, first.prettify());
        long triaged = FakeLedger.calls("GET /api/v1/triage/diagnosis");
        assertEquals(1, triaged);
        assertEquals(1, FakeLedger.calls("GET /api/v1/triage/inputs"));

        // the same review again: the stored one, nothing computed or written
        JsonPath again = post(INCIDENT, REVIEW).then().statusCode(200).extract().jsonPath();
        assertEquals(1, again.getInt("version"));
        assertEquals(first.getString("reviewedAt"), again.getString("reviewedAt"));
        assertEquals(triaged, FakeLedger.calls("GET /api/v1/triage/diagnosis"));
        // the same decision with its labels spelt otherwise is the same review
        post(INCIDENT, REVIEW.replace("DATA_PLANE", "data-plane").replace("NEIGHBOUR_MEMORY_PRESSURE", "neighbour-memory-pressure"))
                .then().statusCode(200).body("version", equalTo(1));

        // the ledger's diagnosis changes: the stored review keeps what was computed when it was written
        FakeLedger.answer("/api/v1/triage/diagnosis", triage("oom", "its own memory rose to its limit"));
        JsonPath stored = as(READER).get(review(INCIDENT)).then().statusCode(200).extract().jsonPath();
        assertEquals("neighbour-memory-pressure", stored.getString("triage.cause"));
        assertTrue(stored.getString("triage.evidence[0].fact").startsWith("the card's memory was full"));

        // a changed review is the next version, triaged now; the first stays readable
        JsonPath second = post(INCIDENT, body("Own growth after all.", ALERT, POLICY, ACCEPTANCE, REGRESSION, QUOTA)
                .replace("DATA_PLANE", "WORKLOAD").replace("NEIGHBOUR_MEMORY_PRESSURE", "OOM"))
                .then().statusCode(201).extract().jsonPath();
        assertEquals(2, second.getInt("version"));
        assertEquals("oom", second.getString("triage.cause"));
        JsonPath newest = as(READER).get(review(INCIDENT)).then().statusCode(200).extract().jsonPath();
        assertEquals(2, newest.getInt("version"));
        assertEquals(2, newest.getInt("versions"));
        JsonPath v1 = as(READER).get(review(INCIDENT) + "?version=1").then().statusCode(200).extract().jsonPath();
        assertEquals("neighbour-memory-pressure", v1.getString("cause"));
        assertEquals(2, v1.getInt("versions"));
        as(READER).get(review(INCIDENT) + "?version=3").then().statusCode(404).body("field", equalTo("version"));
        as(READER).get(review(INCIDENT) + "?version=first").then().statusCode(400).body("field", equalTo("version"));
        // back to the first decision: a third version, since the newest decided otherwise
        post(INCIDENT, REVIEW).then().statusCode(201).body("version", equalTo(3));
    }

    @Test
    @Order(5)
    void identicalReviewsSentAtOnceStoreOneVersion() throws Exception {
        String body = body("Raced.", REGRESSION);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Integer>> sent = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                sent.add(pool.submit((Callable<Integer>) () -> post(RACED, body).then().extract().statusCode()));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : sent) {
                statuses.add(f.get(60, TimeUnit.SECONDS));
            }
            assertEquals(1, statuses.stream().filter(s -> s == 201).count(), statuses.toString());
            assertEquals(5, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
        } finally {
            pool.shutdownNow();
        }
        as(READER).get(review(RACED)).then().statusCode(200).body("versions", equalTo(1)).body("version", equalTo(1));
    }

    // --- the page ---------------------------------------------------------------------------------------------------

    @Test
    @Order(6)
    void thePageShowsWhatTenantsWroteAsTextInMarkdownAndHtml() {
        String md = as(READER).get(review(INCIDENT) + "?format=markdown&version=1").then().statusCode(200)
                .contentType(containsString("text/markdown")).extract().asString();
        // the command is shown exactly, in a fence longer than the backticks it holds (a code block is text)
        String fenced = "````sh\n" + COMMAND + "\n````\n";
        assertTrue(md.contains(fenced), md);
        String prose = md.replace(fenced, "");
        for (String raw : List.of("<script>", "</td>", "<img", "|*x*")) {
            assertFalse(prose.contains(raw), raw + " reached the Markdown page outside a code block:\n" + md);
        }
        assertTrue(md.startsWith("# Post-incident review: neighbour-memory-pressure — ml-team/evil&lt;/td&gt;"
                + "&lt;script&gt;alert(1)&lt;/script&gt;\\|\\*x\\*\n"), md);
        assertTrue(md.contains("\\# Card full  \n&lt;img src=x onerror=alert(1)&gt; \\| a neighbour filled the card"), md);
        for (String section : List.of("## Summary", "## Cause", "## Timeline", "## Evidence", "## Changes before the incident",
                "## Prevention")) {
            assertTrue(md.contains(section + "\n"), section);
        }
        assertTrue(md.contains("550.54.15 → 560.35.03"), md);
        assertTrue(md.contains("oom — its own memory stayed at 9 GiB, under its 20 GiB grant"), md);
        assertTrue(md.contains("[export](</api/v1/failures/incidents/" + INCIDENT + "/review/items/3?version=1>)"), md);
        assertTrue(md.indexOf("change: driver") < md.indexOf("incident starts") && md.indexOf("incident starts") < md.indexOf("reviewed by test"),
                "the timeline runs oldest first:\n" + md);

        Response html = as(READER).header("Accept", "text/html").get(review(INCIDENT) + "?version=1");
        html.then().statusCode(200).contentType(containsString("text/html"))
                .header("Content-Security-Policy", containsString("default-src 'none'"));
        String page = html.asString();
        assertFalse(page.contains("<script>"), page);
        assertFalse(page.contains("<img"), page);
        assertTrue(page.contains("ml-team/evil&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;|*x*"), page);
        assertTrue(page.contains("<pre><code>kubectl describe pod -n ml-team 'evil&lt;/td&gt;"), page);
        as(READER).get(review(INCIDENT) + "?format=pdf").then().statusCode(400).body("field", equalTo("format"));
    }

    // --- exports ------------------------------------------------------------------------------------------------

    static String item(int n) {
        return review(INCIDENT) + "/items/" + n + "?version=1";
    }

    @Test
    @Order(7)
    void anAlertThresholdIsAPrometheusRuleThatPromtoolLoadsAndFires(@TempDir Path dir) throws Exception {
        String yaml = as(READER).get(item(1)).then().statusCode(200).contentType(containsString("application/yaml"))
                .extract().asString();
        JsonNode rule = new YAMLMapper().readTree(yaml);
        assertEquals("monitoring.coreos.com/v1", rule.path("apiVersion").asText());
        assertEquals("PrometheusRule", rule.path("kind").asText());
        assertTrue(rule.path("metadata").path("name").asText().matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"));
        JsonNode alert = rule.path("spec").path("groups").get(0).path("rules").get(0);
        assertEquals("GpuCardMemoryNearlyFull", alert.path("alert").asText());
        assertEquals("10m", alert.path("for").asText());

        Path promtool = promtool();
        YAMLMapper out = new YAMLMapper();
        Files.writeString(dir.resolve("rules.yaml"), out.writeValueAsString(rule.path("spec")));
        Process check = new ProcessBuilder(promtool.toString(), "check", "rules", "rules.yaml").directory(dir.toFile())
                .redirectErrorStream(true).start();
        String checked = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(60, TimeUnit.SECONDS) && check.exitValue() == 0, "promtool check rules:\n" + checked + "\n" + yaml);
        assertTrue(checked.contains("SUCCESS: 1 rules found"), checked);

        // a card above the line for ten minutes fires it, with the labels and the text as written (no template ran)
        ObjectNode test = out.createObjectNode();
        test.putArray("rule_files").add("rules.yaml");
        test.put("evaluation_interval", "1m");
        ObjectNode unit = test.putArray("tests").addObject().put("interval", "1m");
        unit.putArray("input_series").addObject()
                .put("series", "DCGM_FI_DEV_FB_USED{Hostname=\"gpu-1\",gpu=\"0\",note=\"say \\\"hi\\\" \\\\ {{ .x }}\"}")
                .put("values", "80000x20");
        ArrayNode cases = unit.putArray("alert_rule_test");
        ObjectNode expected = cases.addObject().put("eval_time", "15m").put("alertname",
                "GpuCardMemoryNearlyFull").putArray("exp_alerts").addObject();
        expected.putObject("exp_labels").put("severity", "warning").put("incident", INCIDENT).put("gpu", "0")
                .put("Hostname", "gpu-1");
        expected.putObject("exp_annotations")
                .put("summary", "GpuCardMemoryNearlyFull: " + alert.path("expr").asText())
                .put("description", "The card {{ .Labels.gpu }} fills up. Added after incident " + INCIDENT
                        + " (neighbour-memory-pressure on ml-team/" + HOSTILE + ").")
                .put("runbook_url", "http://alert-service:8084" + review(INCIDENT) + "?format=html");
        cases.addObject().put("eval_time", "5m").put("alertname", "GpuCardMemoryNearlyFull")
                .putArray("exp_alerts");
        Files.writeString(dir.resolve("test.yaml"), out.writeValueAsString(test));
        Process run = new ProcessBuilder(promtool.toString(), "test", "rules", "test.yaml").directory(dir.toFile())
                .redirectErrorStream(true).start();
        String tested = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(run.waitFor(60, TimeUnit.SECONDS) && run.exitValue() == 0, "promtool test rules:\n" + tested);
    }

    @Test
    @Order(8)
    void anAdmissionPolicyIsTheObjectsAClusterAdminApplies() {
        String yaml = as(READER).get(item(2)).then().statusCode(200).contentType(containsString("application/yaml"))
                .extract().asString();
        List<HasMetadata> objects = kubernetes(yaml);
        assertEquals(2, objects.size(), yaml);
        ValidatingAdmissionPolicy policy = (ValidatingAdmissionPolicy) objects.get(0);
        ValidatingAdmissionPolicyBinding binding = (ValidatingAdmissionPolicyBinding) objects.get(1);
        assertEquals("admissionregistration.k8s.io/v1", policy.getApiVersion());
        assertEquals(List.of("pods"), policy.getSpec().getMatchConstraints().getResourceRules().get(0).getResources());
        assertEquals(List.of("CREATE"), policy.getSpec().getMatchConstraints().getResourceRules().get(0).getOperations());
        String cel = policy.getSpec().getValidations().get(0).getExpression();
        assertTrue(cel.contains("quantity(string(c.resources.limits['nvidia.com/gpumem'])).isGreaterThan(quantity('20000'))"), cel);
        assertTrue(cel.contains("c.resources.requests['nvidia.com/gpumem']"), cel);
        assertEquals(INCIDENT, policy.getMetadata().getAnnotations().get("gpumeter.io/incident"));
        assertEquals(policy.getMetadata().getName(), binding.getSpec().getPolicyName());
        assertEquals(List.of("Deny"), binding.getSpec().getValidationActions());
        assertEquals(Map.of("kubernetes.io/metadata.name", "ml-team"),
                binding.getSpec().getMatchResources().getNamespaceSelector().getMatchLabels());

        List<HasMetadata> quota = kubernetes(as(READER).get(item(5)).then().statusCode(200).extract().asString());
        ResourceQuota q = (ResourceQuota) quota.get(0);
        assertEquals("ml-team", q.getMetadata().getNamespace());
        assertEquals("8", q.getSpec().getHard().get("requests.nvidia.com/gpu").toString());
    }

    @Test
    @Order(9)
    void anAcceptanceItemIsAPlanSloServiceReads() throws IOException {
        String plan = as(READER).get(item(3) + "&from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z").then().statusCode(200)
                .contentType(containsString("application/json")).extract().asString();
        Object read = SloPlanReader.read(JSON.readTree(plan));
        assertEquals(Instant.parse("2026-11-01T00:00:00Z"), SloPlanReader.get(read, "from"));
        List<?> clauses = (List<?>) SloPlanReader.get(read, "assertions");
        assertEquals("no neighbour OOM", SloPlanReader.get(clauses.get(0), "name"));
        assertEquals("FAILURE_RATE", String.valueOf(SloPlanReader.get(clauses.get(0), "metric")));
        assertEquals("shared", SloPlanReader.get(clauses.get(0), "cell"));
        assertEquals("Incident " + INCIDENT + ": no neighbour OOM", SloPlanReader.get(read, "name"));
        // without a window, the day before the export
        JsonNode byDefault = JSON.readTree(as(READER).get(item(3)).then().statusCode(200).extract().asString());
        assertEquals(Duration.ofHours(24), Duration.between(Instant.parse(byDefault.path("from").asText()),
                Instant.parse(byDefault.path("to").asText())));
        SloPlanReader.read(byDefault);
        as(READER).get(item(3) + "&from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z").then().statusCode(400)
                .body("field", equalTo("to"));
    }

    @Test
    @Order(10)
    void aRegressionCaseIsTheRedactedInputsWithHowToReplayThem() throws IOException {
        byte[] zip = as(READER).get(item(4)).then().statusCode(200).contentType("application/zip")
                .header("Content-Disposition", containsString(".zip")).extract().asByteArray();
        Map<String, String> files = unzip(zip);
        assertEquals(List.of("README.md", "bundle.json", "usage.json", "expected.json", "replay.sh"),
                List.copyOf(files.keySet()));
        for (String secret : List.of("rival-lab", "secret-run-7", "secret-wl", "project falcon", "rival-corp")) {
            files.forEach((name, text) -> assertFalse(text.contains(secret), secret + " in " + name + ":\n" + text));
        }
        ObjectMapper strict = new ObjectMapper().findAndRegisterModules().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        FactBundle bundle = strict.readValue(files.get("bundle.json"), FactBundle.class);
        assertEquals(InputsRedactionTest.batch().size(), bundle.governance().size(), "every governance fact the triage read is kept");
        assertEquals("trainer-0", bundle.governance().podStatuses().get(0).name());
        assertEquals("other-tenant-1", bundle.governance().podStatuses().get(1).namespace());
        assertEquals(List.of("trainer-0", bundle.governance().podStatuses().get(1).name()),
                bundle.facts().pods().stream().map(p -> p.name()).toList(), "both pods' versions, the other's pseudonymised alike");
        assertEquals("GPU-1", bundle.facts().nodes().get(0).gpus().get(0).uuid());
        UsageBatch usage = strict.readValue(files.get("usage.json"), UsageBatch.class);
        assertEquals(4, usage.values());
        JsonNode expected = JSON.readTree(files.get("expected.json"));
        assertEquals("neighbour-memory-pressure", expected.path("cause").asText());
        assertTrue(expected.path("triageQuery").asText().contains("namespace=ml-team"), expected.toString());
        String readme = files.get("README.md");
        assertTrue(readme.contains("must triage to `neighbour-memory-pressure`"), readme);
        String replay = files.get("replay.sh");
        List<String> curls = replay.lines().filter(l -> l.startsWith("curl ")).toList();
        assertEquals(3, curls.size(), replay);
        assertTrue(curls.get(0).endsWith("--data-binary @bundle.json \"$LEDGER\"'/api/v1/facts/bundles'"), curls.get(0));
        assertTrue(curls.get(1).endsWith("--data-binary @usage.json \"$LEDGER\"'/api/v1/usage'"), curls.get(1));
        assertTrue(curls.get(2).startsWith("curl -fsS -H 'Authorization: Bearer '\"$GPUMETER_TOKEN\" \"$ALERT\"'/api/v1/triage?"),
                curls.get(2));
        for (String curl : curls) {
            assertTrue(ShellWords.onlyQuoted(curl), "every word quoted: " + curl);
            assertTrue(readme.contains(curl + "\n"), "the README gives the same command: " + curl + "\n" + readme);
        }

        as(READER).get(review(INCIDENT) + "/items/9").then().statusCode(404).body("field", equalTo("n"));
        as(READER).get(review(INCIDENT) + "/items/first").then().statusCode(400).body("field", equalTo("n"));
        as(READER).get(review(INCIDENT) + "/items/0").then().statusCode(404).body("field", equalTo("n"));
    }

    /**
     * A pod the ledger learnt of only from the version the kubelet wrote as it failed is unknown at the incident's
     * start: the review asks again where the incident left it, its end, and keeps that triage and the inputs it read.
     */
    @Test
    @Order(10)
    void aSubjectUnknownAtTheIncidentsStartIsTriagedWhereTheIncidentLeftIt() throws IOException {
        String late = "f6f6f6f6f6f6f6f6f6f6f6f6";
        Instant started = NOW.minus(Duration.ofHours(30));
        Instant ended = started.plusSeconds(1);
        ObjectNode incident = (ObjectNode) JSON.readTree(incident(late, "embed-0", started, false));
        incident.put("endedAt", ended.toString());
        FakeLedger.answer(FakeLedger.INCIDENTS + "/" + late, incident.toString());
        String unknown = "{\"status\":404,\"title\":\"Not Found\",\"field\":\"pod\",\"detail\":\"no pod 'ml-team/embed-0' at or before\"}";
        FakeLedger.answerAt("/api/v1/triage/diagnosis", started, 404, unknown);
        FakeLedger.answerAt("/api/v1/triage/inputs", started, 404, unknown);
        FakeLedger.ASKED.clear();

        JsonPath r = post(late, body("Known only as it failed.", REGRESSION)).then().statusCode(201).extract().jsonPath();
        assertEquals("neighbour-memory-pressure", r.getString("triage.cause"), r.prettify());
        assertEquals(null, r.getString("triageNote"));
        assertTrue(r.getInt("inputs.facts") > 0, r.prettify());
        List<String> asked = FakeLedger.ASKED.stream().filter(a -> a.contains("/api/v1/triage/")).toList();
        assertEquals(List.of("diagnosis at=" + started, "diagnosis at=" + ended, "inputs at=" + ended),
                asked.stream().map(a -> a.replaceAll(".*/api/v1/triage/(\\w+)\\?.*\\bat=([^&]+).*", "$1 at=$2")).toList(),
                String.join("\n", asked));
    }

    /**
     * A version written while only the governance facts were kept still exports them: the bundle holds its governance
     * half alone, no usage file, no command to send one.
     */
    @Test
    @Order(10)
    void aRegressionCaseKeptBeforeTheMeteringFactsExportsTheGovernanceFactsItKept() throws IOException {
        String legacy = "0123456789abcdef01234567";
        pool.preparedQuery("""
                        INSERT INTO alert.incident_review (incident_id, version, content_hash, root_cause, cause, summary,
                            prevention, reviewer, reviewed_at, incident, triage, triage_note, inputs, inputs_note)
                        SELECT $1, version, content_hash, root_cause, cause, summary, prevention, reviewer, reviewed_at,
                            incident, triage, triage_note, inputs->'bundle'->'governance', inputs_note
                        FROM alert.incident_review WHERE incident_id = $2 AND version = 1""")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(legacy, INCIDENT)).await().indefinitely();
        Map<String, String> files = unzip(as(READER).get(review(legacy) + "/items/4?version=1").then().statusCode(200)
                .contentType("application/zip").extract().asByteArray());
        assertEquals(List.of("README.md", "bundle.json", "expected.json", "replay.sh"), List.copyOf(files.keySet()));
        ObjectMapper strict = new ObjectMapper().findAndRegisterModules().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        FactBundle bundle = strict.readValue(files.get("bundle.json"), FactBundle.class);
        assertEquals(null, bundle.facts());
        assertEquals(InputsRedactionTest.batch().size(), bundle.governance().size());
        assertFalse(files.get("replay.sh").contains("/api/v1/usage"), files.get("replay.sh"));
    }

    // --- waiting for a review ---------------------------------------------------------------------------------------

    @Test
    @Order(11)
    void theIncidentsWaitingForAReviewAreListedAndAlertedOn() {
        List<String> waiting = as(READER).get("/api/v1/failures/incidents?reviewed=false").then().statusCode(200)
                .extract().jsonPath().getList("id");
        assertEquals(List.of(OLD_OPEN, WAITING), waiting, "oldest first; the reviewed and the young left out");
        assertEquals(List.of(OLD_OPEN, WAITING, YOUNG), as(READER).get("/api/v1/failures/incidents?reviewed=false&olderThan=1h")
                .then().statusCode(200).extract().jsonPath().getList("id"));
        assertEquals(List.of(INCIDENT), as(READER).get("/api/v1/failures/incidents?reviewed=true&olderThan=PT1H")
                .then().statusCode(200).extract().jsonPath().getList("id"));
        as(READER).get("/api/v1/failures/incidents").then().statusCode(400).body("field", equalTo("reviewed"));
        as(READER).get("/api/v1/failures/incidents?reviewed=maybe").then().statusCode(400).body("field", equalTo("reviewed"));
        as(READER).get("/api/v1/failures/incidents?reviewed=false&olderThan=soon").then().statusCode(400)
                .body("field", equalTo("olderThan"));

        assertEquals(Set.of(OLD_OPEN, WAITING), unreviewedAlerts());
        JsonPath rules = as(READER).get("/api/v1/rules").then().statusCode(200).extract().jsonPath();
        assertTrue(rules.getString("find { it.alertname == 'IncidentUnreviewed' }.condition").contains("24 h"));
        JsonPath runbook = as(READER).get("/api/v1/runbook").then().statusCode(200).extract().jsonPath();
        assertEquals("alert-service", runbook.getString("find { it.alertname == 'IncidentUnreviewed' }.raisedBy"));

        FakeLedger.answer(FakeLedger.INCIDENTS + "/" + WAITING, incident(WAITING, "trainer-1", NOW.minus(Duration.ofDays(3)), false));
        post(WAITING, body("Reviewed at last.", REGRESSION)).then().statusCode(201);
        assertEquals(Set.of(OLD_OPEN), unreviewedAlerts(), "a review resolves its incident's alert");
        assertEquals(List.of(OLD_OPEN), as(READER).get("/api/v1/failures/incidents?reviewed=false").then().statusCode(200)
                .extract().jsonPath().getList("id"));
    }

    /**
     * A review whose items carry every field a kind may: a scheduler's, two resources' and a request's admission
     * policies, an acceptance ratio against a baseline cell. The console's Review page reads the review from this answer.
     */
    @Test
    @Order(12)
    void aReviewServesEachItemWithTheFieldsItWasGivenItsNumberAndItsExport() {
        String scheduler = "{\"kind\":\"ADMISSION_POLICY\",\"policy\":\"REQUIRE_SCHEDULER\",\"resource\":\"nvidia.com/gpumem\","
                + "\"schedulerName\":\"hami-scheduler\",\"action\":\"WARN\"}";
        String exclusive = "{\"kind\":\"ADMISSION_POLICY\",\"policy\":\"EXCLUSIVE_RESOURCES\",\"namespace\":\"ml-team\","
                + "\"resource\":\"nvidia.com/gpu\",\"otherResource\":\"nvidia.com/gpumem\"}";
        String ratio = "{\"kind\":\"ACCEPTANCE_ITEM\",\"cell\":{\"name\":\"shared\",\"workload\":\"chat\",\"form\":\"HAMI\","
                + "\"selector\":{\"namespace\":\"ml-team\"}},\"baseline\":{\"name\":\"alone\",\"workload\":\"chat\","
                + "\"form\":\"DEDICATED\",\"selector\":{\"namespace\":\"ml-team\"}},\"assertion\":{\"name\":\"p99 within 30 %\","
                + "\"kind\":\"RATIO\",\"metric\":\"P99\",\"sli\":\"TTFT\",\"maxRatio\":1.3}}";
        post(RACED, body("Raced, then reviewed again.", ALERT, scheduler, exclusive, ratio, REGRESSION, POLICY)).then().statusCode(201)
                .body("version", equalTo(2));
        String review = as(READER).get(review(RACED)).then().statusCode(200)
                .body("prevention.n", equalTo(List.of(1, 2, 3, 4, 5, 6)))
                .body("prevention[5].limit", equalTo("20000"))
                .body("prevention[0].severity", equalTo("warning")).body("prevention[0].comparison", equalTo(">"))
                .body("prevention[1].schedulerName", equalTo("hami-scheduler")).body("prevention[1].action", equalTo("WARN"))
                .body("prevention[2].otherResource", equalTo("nvidia.com/gpumem"))
                .body("prevention[3].baseline.name", equalTo("alone")).body("prevention[3].assertion.maxRatio", equalTo(1.3f))
                .body("prevention[4].note", equalTo("neighbour pressure, not its own growth"))
                .body("prevention[4].export", equalTo(review(RACED) + "/items/5?version=2")).extract().asString();
        Contract.record("alert", "review", review);
    }

    /** Runs an evaluation and answers the incidents IncidentUnreviewed fires for. */
    static Set<String> unreviewedAlerts() {
        JsonPath rules = as(OPERATOR).post("/api/v1/rules/evaluations").then().statusCode(200).extract().jsonPath();
        assertEquals("FIRING", rules.getString("find { it.alertname == 'IncidentUnreviewed' }.status"), rules.prettify());
        return new HashSet<>(as(READER).get("/api/v1/alerts").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.alertname == 'IncidentUnreviewed' }.labels.incident"));
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    static List<HasMetadata> kubernetes(String yaml) {
        KubernetesSerialization k = new KubernetesSerialization();
        List<HasMetadata> out = new ArrayList<>();
        for (String doc : yaml.split("(?m)^---\\s*$")) {
            if (!doc.isBlank()) {
                out.add(k.unmarshal(doc));
            }
        }
        return out;
    }

    static Map<String, String> unzip(byte[] zip) throws IOException {
        Map<String, String> files = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                files.put(e.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return files;
    }

    /** Debian's promtool (package prometheus) on the PATH, or the test is skipped saying so. */
    static Path promtool() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir).resolve("promtool");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        Assumptions.abort("promtool is not on the PATH: skipped (apt-get install prometheus)");
        return null;
    }
}
