package io.gpumeter.alert.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.TestTokens;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.common.triage.Triage.Named;
import io.gpumeter.common.triage.Triage.Subject;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /api/v1/triage against stand-ins of the ledger and slo-service, authentication on: the subject's service is
 * asked with alert-service's own token, its refusals reach the caller as it made them, the runbook's entry for the
 * cause is the fix, and a tenant reads only its own subjects, cut so that no other tenant's name is in them.
 */
@QuarkusTest
@TestProfile(AuthEnabled.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(StandInDiagnosers.class)
class TriageResourceTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());
    private static final Instant AT = Instant.parse("2026-11-02T12:00:00Z");
    private static final String READER = TestTokens.bearer("reader");
    private static final String ACME = TestTokens.bearer("tenant:acme");
    private static final Subject ACME_POD = new Subject(SubjectKind.POD, "east", "acme-ml", "train-0", "u1", "acme");
    private static final Subject INITECH_POD = new Subject(SubjectKind.POD, "east", "initech-ml", "big-0", "u2", "initech");

    @BeforeEach
    void reset() {
        StandInDiagnosers.reset();
    }

    static Triage diagnosis(Subject subject, Symptom symptom, String cause, String layer) {
        return new Triage(subject, AT, symptom, layer, cause, Confidence.HIGH,
                new Triage.Scope("NODE", List.of("acme-ml/train-1", "initech-ml/big-0", "hooli-ml/serve-2"), 0),
                List.of(new Triage.ChangeRef("c-1", AT.minusSeconds(3600), "driver", "gpu-a100-01", "driver",
                        "550.54.15", "560.35.03")),
                new Triage.Recurrence(2, AT.minusSeconds(86_400)),
                List.of(new Evidence(AT, "usage", "card full: initech-ml/big-0 at 60 GiB, hooli-ml/serve-2 at 12 GiB; "
                                + "train-0 stayed at 7 GiB of its 10", "kubectl top pod -n initech-ml big-0"),
                        new Evidence(AT, "pod-status", "acme-ml/train-0 OOMKilled", "kubectl describe pod -n acme-ml train-0")),
                List.of(new Triage.Alternative("oom", "train-0 stayed under its grant while big-0 grew")),
                List.of("usage of every share on GPU-1"), null,
                List.of(new Named(SubjectKind.POD, "acme-ml", "train-0", "acme"),
                        new Named(SubjectKind.POD, "acme-ml", "train-1", "acme"),
                        new Named(SubjectKind.POD, "initech-ml", "big-0", "initech"),
                        new Named(SubjectKind.POD, "hooli-ml", "serve-2", "hooli")));
    }

    static void ledger(String subject, Triage answer) {
        StandInDiagnosers.LEDGER.put(subject, new StandInDiagnosers.Answer(200, json(answer)));
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Response triage(String token, Map<String, String> query) {
        return given().header("Authorization", token).queryParams(query).get("/api/v1/triage");
    }

    @Test
    void theLedgerIsAskedTheSameQuestionWithAlertServicesOwnTokenAndTheRunbooksEntryIsTheFix() {
        ledger("pod=acme-ml/train-0", diagnosis(ACME_POD, Symptom.OOM, "neighbour-memory-pressure", "data-plane"));
        String body = triage(READER, Map.of("pod", "acme-ml/train-0", "cluster", "east", "at", "2026-11-02T12:00:00Z"))
                .then().statusCode(200).contentType("application/json").extract().asString();
        Contract.record("alert", "triage", body); // the console's Triage and Review pages draw it
        JsonPath answer = JsonPath.from(body);

        assertEquals("OOM", answer.getString("symptom"));
        assertEquals("neighbour-memory-pressure", answer.getString("cause"));
        assertTrue(answer.getString("fix.action").startsWith("1. Restart the workload elsewhere"), answer.getString("fix.action"));
        assertTrue(answer.getString("fix.verify").contains("ledger violations of kind memory"));
        assertEquals(List.of("acme-ml/train-1", "initech-ml/big-0", "hooli-ml/serve-2"), answer.getList("scope.alike"),
                "a fleet reader's answer is whole");
        assertEquals("560.35.03", answer.getString("changes[0].to"));
        assertEquals(1, StandInDiagnosers.CALLS.size());
        StandInDiagnosers.Call call = StandInDiagnosers.CALLS.get(0);
        assertEquals("ledger", call.service());
        assertEquals("GET " + StandInDiagnosers.PATH, call.method() + " " + call.path(), "a triage writes nothing");
        assertEquals(Map.of("namespace", "acme-ml", "pod", "train-0", "cluster", "east", "at", "2026-11-02T12:00:00Z"),
                call.query());
        assertEquals("Bearer " + TestTokens.SERVICE_TOKEN, call.authorization());
    }

    @Test
    void everyCauseCarriesItsRunbookEntryAsServedByTheRunbookRead() {
        JsonPath runbook = given().header("Authorization", READER).queryParam("section", "causes").get("/api/v1/runbook")
                .then().statusCode(200).extract().jsonPath();
        List<String> causes = new ArrayList<>();
        for (PendingReason r : PendingReason.values()) {
            causes.add(r.label());
        }
        for (FailureCause c : FailureCause.values()) {
            causes.add(c.label());
        }
        causes.addAll(List.of("xid-48", "xid-45", "xid-61", "xid-7"));
        List<String> wrong = new ArrayList<>();
        for (String cause : causes) {
            ledger("pod=acme-ml/train-0", diagnosis(ACME_POD, Symptom.FAILED, cause, "data-plane"));
            JsonPath answer = triage(READER, Map.of("namespace", "acme-ml", "pod", "train-0")).then().statusCode(200)
                    .extract().jsonPath();
            String entry = XID_CLASS.getOrDefault(cause, cause);
            String steps = runbook.getString("find { it.cause == '" + entry + "' }.steps[0]");
            String verify = runbook.getString("find { it.cause == '" + entry + "' }.verify");
            if (steps == null || !answer.getString("fix.action").contains(steps)
                    || !verify.equals(answer.getString("fix.verify"))) {
                wrong.add(cause + " -> " + answer.getString("fix"));
            }
        }
        assertEquals(List.of(), wrong);
    }

    /** Xids without an entry of their own take their class's. */
    private static final Map<String, String> XID_CLASS = Map.of("xid-45", "xid-application",
            "xid-61", "xid-hardware-driver", "xid-7", "xid-unclassified");

    @Test
    void aHealthySubjectHasNoFixAndAServiceIsSloServicesToDiagnose() {
        Subject chat = new Subject(SubjectKind.SERVICE, "east", "acme-ml", "chat", null, "acme");
        StandInDiagnosers.SLO.put("service=acme-ml/chat", new StandInDiagnosers.Answer(200, json(new Triage(chat, AT,
                Symptom.NONE, null, null, null, null, null, null, null, null,
                List.of("p99 under its line in the hour before"), null))));
        JsonPath answer = triage(ACME, Map.of("service", "acme-ml/chat")).then().statusCode(200).extract().jsonPath();
        assertEquals("NONE", answer.getString("symptom"));
        assertNull(answer.get("fix"));
        assertEquals(List.of("p99 under its line in the hour before"), answer.getList("checked"));
        assertEquals(List.of("slo"), StandInDiagnosers.CALLS.stream().map(StandInDiagnosers.Call::service).toList());
    }

    @Test
    void theDiagnosingServicesRefusalsReachTheCallerAsTheyWereMade() {
        StandInDiagnosers.LEDGER.put("pod=acme-ml/ghost", new StandInDiagnosers.Answer(404,
                "{\"status\":404,\"title\":\"Not Found\",\"field\":\"pod\",\"detail\":\"the ledger knows no pod acme-ml/ghost in cluster east\"}"));
        triage(READER, Map.of("pod", "acme-ml/ghost", "cluster", "east")).then().statusCode(404)
                .contentType("application/problem+json").body("field", equalTo("pod"))
                .body("detail", equalTo("the ledger knows no pod acme-ml/ghost in cluster east"));
        StandInDiagnosers.LEDGER.put("workload=acme-ml/job-1", new StandInDiagnosers.Answer(400,
                "{\"status\":400,\"title\":\"Bad Request\",\"field\":\"at\",\"detail\":\"at is before anything the ledger holds\"}"));
        triage(READER, Map.of("workload", "acme-ml/job-1", "at", "2020-01-01T00:00:00Z")).then().statusCode(400)
                .body("field", equalTo("at")).body("detail", equalTo("at is before anything the ledger holds"));
        assertEquals(2, StandInDiagnosers.CALLS.size(), "neither refusal retried");

        // its own checks come first, and ask nobody
        triage(READER, Map.of("pod", "train-0")).then().statusCode(400).body("field", equalTo("namespace"));
        triage(READER, Map.of("pod", "acme-ml/a", "node", "n1")).then().statusCode(400).body("field", equalTo("pod"));
        triage(READER, Map.of("node", "n1", "at", "yesterday")).then().statusCode(400).body("field", equalTo("at"));
        assertEquals(2, StandInDiagnosers.CALLS.size());

        // a service without the endpoint is no answer about the subject
        triage(READER, Map.of("podGroup", "acme-ml/pg")).then().statusCode(503)
                .body("detail", containsString("the ledger answers no triage diagnosis"));
    }

    @Test
    void aTenantsAnswerNamesNoOtherTenantsPodsAndCountsThem() {
        ledger("pod=acme-ml/train-0", diagnosis(ACME_POD, Symptom.OOM, "neighbour-memory-pressure", "data-plane"));
        String body = triage(ACME, Map.of("pod", "acme-ml/train-0")).then().statusCode(200).extract().asString();
        JsonPath answer = JsonPath.from(body);

        assertEquals(List.of("acme-ml/train-1"), answer.getList("scope.alike"));
        assertEquals(2, answer.getInt("scope.othersAlike"));
        assertEquals("card full: another tenant's pod at 60 GiB, another tenant's pod at 12 GiB; train-0 stayed at 7 GiB "
                + "of its 10", answer.getString("evidence[0].fact"));
        assertNull(answer.get("evidence[0].command"));
        assertEquals("kubectl describe pod -n acme-ml train-0", answer.getString("evidence[1].command"));
        assertEquals("train-0 stayed under its grant while another tenant's pod grew",
                answer.getString("alternatives[0].ruledOutBy"));
        assertEquals(List.of("acme", "acme"), answer.getList("named.tenant"));
        assertTrue(answer.getString("fix.action").contains("Restart the workload elsewhere"));
        String lower = body.toLowerCase(Locale.ROOT);
        for (String foreign : List.of("initech", "hooli", "big-0", "serve-2")) {
            assertFalse(lower.contains(foreign), foreign + " in " + body);
        }
        assertEquals(Map.of("namespace", "acme-ml", "pod", "train-0"), StandInDiagnosers.CALLS.get(0).query(),
                "the ledger is asked the whole question; the tenant is alert-service's to cut for");
    }

    @Test
    void anotherTenantsSubjectIsA404ExactlyLikeAnUnknownOne() {
        ledger("pod=initech-ml/big-0", diagnosis(INITECH_POD, Symptom.OOM, "oom", "workload"));
        StandInDiagnosers.LEDGER.put("pod=initech-ml/ghost", new StandInDiagnosers.Answer(404,
                "{\"status\":404,\"title\":\"Not Found\",\"field\":\"pod\",\"detail\":\"the ledger knows no pod initech-ml/ghost (known: 3 pods of initech)\"}"));

        String other = triage(ACME, Map.of("pod", "initech-ml/big-0")).then().statusCode(404)
                .contentType("application/problem+json").extract().asString();
        String unknown = triage(ACME, Map.of("pod", "initech-ml/ghost")).then().statusCode(404).extract().asString();

        assertEquals(unknown.replace("ghost", "big-0"), other);
        assertEquals("no pod initech-ml/big-0 is known", JsonPath.from(other).getString("detail"));
        assertEquals("pod", JsonPath.from(other).getString("field"));
        assertFalse(unknown.contains("known:"), "to a tenant, the ledger's own words about the fleet are not passed on");

        int calls = StandInDiagnosers.CALLS.size();
        triage(ACME, Map.of("node", "gpu-a100-01")).then().statusCode(404).body("detail", equalTo("no node gpu-a100-01 is known"));
        assertEquals(calls, StandInDiagnosers.CALLS.size(), "a node is no tenant's: nobody is asked");
        triage(READER, Map.of("pod", "initech-ml/big-0")).then().statusCode(200).body("subject.tenant", equalTo("initech"));
        triage(ACME, Map.of("pod", "initech-ml/big-0", "tenant", "initech")).then().statusCode(403);
    }

    @Test
    void theApiDescriptionOffersEveryParameterTheTenantEscapeMatrixTries() {
        JsonPath openApi = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().jsonPath();
        List<String> parameters = openApi.getList("paths.'/api/v1/triage'.get.parameters.findAll { it.in == 'query' }.name");
        assertEquals(List.of("at", "cluster", "namespace", "node", "pod", "podGroup", "service", "tenant", "workload"),
                parameters.stream().sorted().toList());
    }

    @Test
    void theRunbookReadServesTheCausesBesideTheAlerts() {
        JsonPath alerts = given().header("Authorization", READER).get("/api/v1/runbook").then().statusCode(200)
                .extract().jsonPath();
        assertTrue(alerts.getList("alertname").contains("GpuFallenOffBus"), "the alerts' list, as ever");
        JsonPath causes = given().header("Authorization", READER).queryParam("section", "causes").get("/api/v1/runbook")
                .then().statusCode(200).extract().jsonPath();
        assertEquals("wait", causes.getString("find { it.cause == 'cluster-full' }.kind"));
        assertEquals("control-plane", causes.getString("find { it.cause == 'cluster-full' }.layer"));
        assertEquals("xid", causes.getString("find { it.cause == 'xid-48' }.kind"));
        String md = given().header("Authorization", READER).queryParam("format", "markdown").get("/api/v1/runbook")
                .then().statusCode(200).extract().asString();
        assertTrue(md.contains("<a id=\"GpuFallenOffBus\"></a>") && md.contains("<a id=\"cluster-full\"></a>"));
        given().header("Authorization", READER).queryParam("section", "everything").get("/api/v1/runbook").then()
                .statusCode(400).body("field", equalTo("section"));
    }
}
