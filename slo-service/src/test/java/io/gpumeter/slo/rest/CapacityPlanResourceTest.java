package io.gpumeter.slo.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.slo.repository.RequestRateRepository;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capacity plan of a small fleet worked out by hand. The plan is asked at 2031-03-08T10:00Z with 7 days of
 * history (1-7 March, UTC) and a 7-day horizon.
 * <p>
 * <b>A100</b> ("NVIDIA A100-SXM4-80GB", in the inventory since May): 16 cards, one cordoned and one failed, so 14
 * usable; 10 take whole cards, 4 offer 3g.40gb slices. Failures: 0.001 per card-hour repaired in 10 h on average,
 * 0.001 × 10 = 1 % of cards down; planned maintenance cordoned 3 % of card-hours: the failures margin is 0.04. At the
 * busiest hour (14:00) 1.8 GPUs wait on average; the queue-wait p95 peaked at 1,800 s, its median day 300 s (ceiling
 * 300 × 1.5 = 450 s). Three shapes:
 * <ul>
 * <li>inference on whole cards, the Deployment {@code acme-prod/llm-chat}, whose pods answer service
 * {@code capacity-chat}: its busiest hour served 40, 42, … 52 requests/s on the seven days (a line of slope 2, no
 * residual), so the horizon's last day (x = 6 + 7) is 66 requests/s. The latest run whose latency clauses held
 * measured 5 requests/s per GPU under DEDICATED (its idle-cost clause failed, which does not matter; an older run
 * said 3, a newer one 9 over its SLO: neither counts), with a TTFT p99 of
 * 200 ms whose spread is 50 ms: ×1.25, a jitter margin of 1 − 1/1.25 = 0.2. Base 66 / 5 = 13.2 cards;</li>
 * <li>training on whole cards, 81.6 GPU-hours a day: 81.6 / (24 × 0.85) = 4 cards, no latency (jitter floor 0);</li>
 * <li>batch on 3g.40gb slices, 20.4 GPU-hours a day: 1 card.</li>
 * </ul>
 * The peaks margin is 1.8 / (13.2 + 4 + 1 + 1.8) = 0.09. So the inference shape needs 13.2 / (1 − 0.2 − 0.04 − 0.09)
 * = 19.70 cards (jitter 3.94, failures 0.79, peaks 1.77), training 4 / 0.87 = 4.60 (failures 0.18, peaks 0.41), batch
 * 1 / 0.87 = 1.15 (0.05, 0.10); the model 25.45 against 14 usable: short by 11.45.
 * <p>
 * <b>L4</b> ("NVIDIA L4", joined 4 March 08:00): its notebooks on HAMi shares held 0 GPU-hours before it joined and
 * 10.2, 20.4, 30.6 on 5-7 March. Fitted over those three days only, the horizon's last day (x = 2 + 7) holds 102
 * GPU-hours: 5 cards; no failures measured, so the 0.02 floor holds: 5 / 0.98 = 5.10, against 8 usable.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class CapacityPlanResourceTest {

    private static final String PLAN = "/api/v1/capacity/plan";
    private static final String AT = "2031-03-08T10:00:00Z";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static boolean stored;

    @Inject
    Pool pool;

    @Inject
    RequestRateRepository rates;

    static final String SUPPLY = """
            {"from":"2031-03-01T00:00:00Z","to":"2031-03-08T00:00:00Z","timeZone":"UTC","cluster":null,"models":[
             {"model":"NVIDIA A100-SXM4-80GB","spellings":["NVIDIA A100-SXM4-80GB","NVIDIA-A100-SXM4-80GB"],
              "inventorySince":"2030-05-01T00:00:00Z",
              "days":[{"day":"2031-03-01","cardHours":384,"cordonedCardHours":24,"failedCardHours":0,"usableCardHours":360}],
              "end":{"at":"2031-03-08T00:00:00Z","cards":16,"cordoned":1,"failed":1,"usable":14},
              "shapes":[{"shape":"whole","kind":"WHOLE","cards":10,"units":10,"freeUnits":2},
                        {"shape":"mig-3g.40gb","kind":"MIG","cards":4,"units":8,"freeUnits":3}],
              "failures":{"incidents":2,"repaired":2,"mttrSeconds":36000,"perCardHour":0.001,"runbookCordons":1},
              "maintenance":{"cordons":1,"cardHours":80.64,"share":0.03}},
             {"model":"NVIDIA L4","spellings":["NVIDIA L4"],"inventorySince":"2031-03-04T08:00:00Z",
              "days":[],"end":{"at":"2031-03-08T00:00:00Z","cards":8,"cordoned":0,"failed":0,"usable":8},
              "shapes":[{"shape":"hami","kind":"HAMI","cards":2,"units":20,"freeUnits":7}],
              "failures":{"incidents":0,"repaired":0,"mttrSeconds":null,"perCardHour":0,"runbookCordons":0},
              "maintenance":{"cordons":0,"cardHours":0,"share":0}}]}""";

    static final String DEMAND = """
            {"from":"2031-03-01T00:00:00Z","to":"2031-03-08T00:00:00Z","timeZone":"UTC","cluster":null,"shapes":[
             {"model":"NVIDIA A100-SXM4-80GB","workloadClass":"inference","classRule":"owner apps/Deployment",
              "shape":"whole","kind":"WHOLE","service":{"namespace":"acme-prod","name":"llm-chat"},"pods":3,
              "days":%s},
             {"model":"NVIDIA A100-SXM4-80GB","workloadClass":"training","classRule":"owner kubeflow.org/PyTorchJob",
              "shape":"whole","kind":"WHOLE","service":null,"pods":4,"days":%s},
             {"model":"NVIDIA A100-SXM4-80GB","workloadClass":"batch","classRule":"owner batch/Job",
              "shape":"mig-3g.40gb","kind":"MIG","service":null,"pods":9,"days":%s},
             {"model":"NVIDIA L4","workloadClass":"notebook","classRule":"owner kubeflow.org/Notebook",
              "shape":"hami","kind":"HAMI","service":null,"pods":2,"days":%s}],
             "peaks":[{"model":"NVIDIA A100-SXM4-80GB",
               "queueWaitP95Seconds":{"peak":1800,"peakDay":"2031-03-06","median":300},
               "pending":{"peakGpus":6,"peakHour":"2031-03-06T14:00:00Z","busiestHourOfDay":14,"meanGpusAtBusiestHour":1.8}}]}"""
            .formatted(days(50, 50, 50, 50, 50, 50, 50), days(81.6, 81.6, 81.6, 81.6, 81.6, 81.6, 81.6),
                    days(20.4, 20.4, 20.4, 20.4, 20.4, 20.4, 20.4), days(0, 0, 0, 0, 10.2, 20.4, 30.6));

    private static String days(double... gpuHours) {
        StringBuilder out = new StringBuilder("[");
        for (int d = 0; d < gpuHours.length; d++) {
            out.append(d == 0 ? "" : ",").append("{\"day\":\"2031-03-0").append(d + 1).append("\",\"gpuHours\":")
                    .append(gpuHours[d]).append('}');
        }
        return out.append(']').toString();
    }

    @BeforeEach
    void storeOnce() {
        LedgerStandIn.reset();
        // the ledger is asked for the history in UTC days
        for (String[] read : new String[][]{{"/api/v1/capacity/supply", "supply", SUPPLY}, {"/api/v1/demand", "demand", DEMAND}}) {
            LedgerStandIn.answer(get(urlPathEqualTo(read[0])).withQueryParam("from", WireMock.equalTo("2031-03-01T00:00:00Z"))
                    .withQueryParam("to", WireMock.equalTo("2031-03-08T00:00:00Z"))
                    .withQueryParam("timeZone", WireMock.equalTo("UTC")),
                    read[1], read[2]);
        }
        if (stored) {
            return;
        }
        stored = true;
        run("chat capacity, older", "2031-02-10T00:00:00Z", "PASS", "PASS", 3, 180, 20);
        // its idle-cost clause failed, its latency held: the throughput was delivered at the SLO
        run("chat capacity", "2031-02-20T00:00:00Z", "FAIL", "PASS", 5, 200, 50);
        run("chat capacity, over its SLO", "2031-02-27T00:00:00Z", "FAIL", "FAIL", 9, 900, 400);
        for (int d = 1; d <= 7; d++) {
            Instant noon = Instant.parse("2031-03-0" + d + "T12:00:00Z");
            // the busiest hour: (40 + 2·(d − 1)) requests/s over 12:00-13:00, in two minutes of it
            long busiest = (40 + 2L * (d - 1)) * 3600;
            request("llm-chat-7d9f8-x2x4z", noon, busiest / 2);
            request("llm-chat-7d9f8-q7r2m", noon.plusSeconds(600), busiest - busiest / 2);
            request("llm-chat-7d9f8-x2x4z", noon.minusSeconds(9 * 3600), 3600);
        }
        given().contentType("application/json").body("""
                {"name": "capacity-chat-ttft", "selector": {"service": "capacity-chat", "namespace": "acme-prod"},
                 "sli": "TTFT", "objective": {"percentile": 99, "thresholdMs": 800, "per": "MINUTE"},
                 "target": 0.99, "window": "P30D"}""").post("/api/v1/slos").then().statusCode(201);
    }

    private void run(String name, String to, String verdict, String latency, double perGpu, double p99, double spread) {
        String json = """
                {"name":"%s","from":"2031-02-01T00:00:00Z","to":"%s","verdict":"%s","cells":[
                  {"name":"chat-dedicated","workload":"chat","form":"DEDICATED","service":"capacity-chat",
                   "namespace":"acme-prod","tenant":null,"pods":[]}],
                 "commitments":[{"workload":"chat","form":"DEDICATED","cell":"chat-dedicated","sloMs":800,
                   "sloSli":"TTFT","throughputPerGpu":%s}],
                 "assertions":[{"cell":"chat-dedicated","metric":"P99","sli":"TTFT","verdict":"%s"},
                               {"cell":"chat-dedicated","metric":"IDLE_COST","verdict":"%s"}],
                 "matrix":[{"cell":"chat-dedicated","metric":"TTFT_P99","value":%s},
                           {"cell":"chat-dedicated","metric":"TTFT_P99_SPREAD","value":%s}]}"""
                .formatted(name, to, verdict, perGpu, latency, verdict, p99, spread);
        OffsetDateTime end = Instant.parse(to).atOffset(ZoneOffset.UTC);
        pool.preparedQuery("INSERT INTO slo.acceptance_run (name, window_from, window_to, verdict, created_at, plan, run)"
                        + " VALUES ($1, $2, $3, $4, $5, '{}', $6)")
                .execute(Tuple.from(java.util.List.of(name, end.minusDays(1), end, verdict, end, json)))
                .await().indefinitely();
    }

    private void request(String pod, Instant minute, long requests) {
        pool.preparedQuery("INSERT INTO slo.request_minute (service, namespace, pod, minute, requests, failed)"
                        + " VALUES ('capacity-chat', 'acme-prod', $1, $2, $3, 0)")
                .execute(Tuple.of(pod, minute.atOffset(ZoneOffset.UTC), requests)).await().indefinitely();
    }

    private static JsonNode plan() throws Exception {
        return JSON.readTree(planText());
    }

    private static String planText() {
        return given().queryParam("at", AT).queryParam("history", "7d").queryParam("horizon", "7d")
                .get(PLAN).then().statusCode(200).extract().asString();
    }

    private static void same(String expected, JsonNode actual, String what) {
        assertTrue(actual != null && actual.isNumber(), what + " is a number: " + actual);
        assertEquals(0, new BigDecimal(expected).compareTo(actual.decimalValue()),
                what + ": expected " + expected + ", got " + actual);
    }

    private static JsonNode model(JsonNode plan, String name) {
        for (JsonNode m : plan.path("models")) {
            if (name.equals(m.path("model").asText())) {
                return m;
            }
        }
        throw new AssertionError("no model " + name + " in " + plan);
    }

    private static JsonNode shape(JsonNode model, String workloadClass) {
        for (JsonNode s : model.path("shapes")) {
            if (workloadClass.equals(s.path("workloadClass").asText())) {
                return s;
            }
        }
        throw new AssertionError("no " + workloadClass + " shape in " + model);
    }

    /**
     * What the plan reads of the request minutes, in one read: the pods that answered capacity-chat up to the plan's
     * instant (a pod first seen on 8 March, at 09:00, counts), and its busiest hour of each day of the history, 1-7
     * March only: 40, 42, … 52 requests/s (12:00-13:00 each day beats 03:00's 1 request/s), the 8 March minute's 5,000
     * requests/s in none of them.
     */
    @Test
    void theServicesPodsAndBusiestHoursComeFromOneReadOfTheMinutes() {
        pool.preparedQuery("INSERT INTO slo.request_minute (service, namespace, pod, minute, requests, failed)"
                        + " VALUES ('capacity-chat', 'acme-prod', 'llm-chat-7d9f8-n3w9p', $1, $2, 0) ON CONFLICT DO NOTHING")
                .execute(Tuple.of(Instant.parse("2031-03-08T09:00:00Z").atOffset(ZoneOffset.UTC), 5000L * 3600))
                .await().indefinitely();
        RequestRateRepository.ServiceTraffic traffic = rates.traffic(new TimeWindow(
                Instant.parse("2031-03-01T00:00:00Z"), Instant.parse("2031-03-08T00:00:00Z")), Instant.parse(AT),
                ZoneOffset.UTC).await().indefinitely();
        assertEquals(java.util.List.of("llm-chat-7d9f8-n3w9p", "llm-chat-7d9f8-q7r2m", "llm-chat-7d9f8-x2x4z"),
                traffic.pods().stream().filter(p -> p.service().equals("capacity-chat")).map(p -> p.pod()).toList());
        java.util.List<RequestRateRepository.BusiestHour> chat = traffic.busiest().stream()
                .filter(b -> b.service().equals("capacity-chat")).toList();
        assertEquals(java.util.List.of(40.0, 42.0, 44.0, 46.0, 48.0, 50.0, 52.0),
                chat.stream().map(RequestRateRepository.BusiestHour::requestsPerSecond).toList());
        assertEquals(LocalDate.parse("2031-03-01"), chat.get(0).day());
        assertEquals(LocalDate.parse("2031-03-07"), chat.get(6).day());
    }

    @Test
    void theLedgerIsAskedForTheHistoryInUtcDays() throws Exception {
        int before = LedgerStandIn.calls(anyRequestedFor(anyUrl())).size();
        plan();
        java.util.List<LoggedRequest> all = LedgerStandIn.calls(anyRequestedFor(anyUrl()));
        java.util.List<String> asked = all.subList(before, all.size()).stream()
                .map(r -> java.net.URLDecoder.decode(r.getUrl(), java.nio.charset.StandardCharsets.UTF_8)).toList();
        assertTrue(asked.contains("/api/v1/capacity/supply?from=2031-03-01T00:00:00Z&to=2031-03-08T00:00:00Z"
                + "&timeZone=UTC"), asked.toString());
        assertTrue(asked.contains("/api/v1/demand?from=2031-03-01T00:00:00Z&to=2031-03-08T00:00:00Z&timeZone=UTC"),
                asked.toString());
    }

    @Test
    void theInferenceShapeIsCommittedFromTheLatestPassingRunAtItsSlo() throws Exception {
        JsonNode s = shape(model(plan(), "NVIDIA A100-SXM4-80GB"), "inference");
        assertEquals("acceptance", s.path("rule").asText());
        assertEquals("capacity-chat", s.path("service").path("sloService").asText());
        assertEquals("capacity-chat-ttft", s.path("slo").path("name").asText());
        same("800", s.path("slo").path("thresholdMs"), "SLO");
        JsonNode d = s.path("deliverable");
        same("5", d.path("perGpu"), "measured per GPU");
        assertEquals("chat capacity", d.path("runName").asText());
        assertEquals("DEDICATED", d.path("form").asText());
        same("3.35", d.path("committedPerGpu"), "5 × (1 − 0.33)");
        JsonNode demand = s.path("demand");
        assertEquals("requests/s", demand.path("unit").asText());
        same("2", demand.path("slopePerDay"), "slope");
        same("66", demand.path("forecast"), "busiest-hour rate on the horizon's last day");
        assertEquals("2031-03-14", demand.path("forecastDay").asText());
        JsonNode m = s.path("margins");
        same("0.2", m.path("jitter").path("applied"), "jitter");
        assertEquals("measured", m.path("jitter").path("source").asText());
        assertTrue(m.path("jitter").path("basis").asText().contains("50.0 ms over a 200.0 ms"), m.toString());
        same("0.04", m.path("failures").path("applied"), "failures");
        same("0.09", m.path("peaks").path("applied"), "peaks");
        JsonNode c = s.path("cardsNeeded");
        same("13.2", c.path("base"), "base");
        same("3.94", c.path("jitter"), "jitter cards");
        same("0.79", c.path("failures"), "failure cards");
        same("1.77", c.path("peaks"), "peak cards");
        same("19.7", c.path("total"), "total");
        same("-9.7", s.path("gap").path("cards"), "10 whole cards − 19.70");
        same("450", s.path("queueWaitCeilingSeconds"), "median p95 × 1.5");
        assertEquals("throttle", s.path("degradesFirst").path("policy").asText());
        assertEquals("gpumeter.slo.capacity.degrade.inference", s.path("degradesFirst").path("configuredBy").asText());
    }

    @Test
    void shapesWithoutARunUseAllocatedHours() throws Exception {
        JsonNode a100 = model(plan(), "NVIDIA A100-SXM4-80GB");
        JsonNode training = shape(a100, "training");
        assertEquals("allocated-hours", training.path("rule").asText());
        same("4", training.path("cardsNeeded").path("base"), "81.6 / 20.4");
        same("0", training.path("cardsNeeded").path("jitter"), "no jitter");
        assertEquals("floor", training.path("margins").path("jitter").path("source").asText());
        same("4.6", training.path("cardsNeeded").path("total"), "4 / 0.87");
        same("0.18", training.path("cardsNeeded").path("failures"), "failures");
        same("0.41", training.path("cardsNeeded").path("peaks"), "peaks");
        same("5.4", training.path("gap").path("cards"), "10 − 4.60");
        assertEquals("queue", training.path("degradesFirst").path("policy").asText());
        assertTrue(training.path("deliverable").path("basis").asText()
                .startsWith("no service of slo-service's serves this shape"), training.toString());
        JsonNode batch = shape(a100, "batch");
        same("1.15", batch.path("cardsNeeded").path("total"), "1 / 0.87");
        same("2.85", batch.path("gap").path("cards"), "4 MIG cards − 1.15");
        assertEquals("degrade", batch.path("degradesFirst").path("policy").asText());
        assertTrue(batch.path("degradesFirst").path("configuredBy").asText().contains("degrade-shape"));
    }

    @Test
    void theModelStacksItsShapesAgainstItsUsableCards() throws Exception {
        String plan = planText();
        Contract.record("slo", "capacity-plan", plan); // the console's Capacity page draws it
        JsonNode a100 = model(JSON.readTree(plan), "NVIDIA A100-SXM4-80GB");
        JsonNode supply = a100.path("supply");
        assertEquals(16, supply.path("cards").asInt());
        assertEquals(14, supply.path("usable").asInt());
        JsonNode c = a100.path("cardsNeeded");
        same("18.2", c.path("base"), "13.2 + 4 + 1");
        same("3.94", c.path("jitter"), "jitter");
        same("1.02", c.path("failures"), "0.79 + 0.18 + 0.05");
        same("2.28", c.path("peaks"), "1.77 + 0.41 + 0.10");
        same("25.45", c.path("total"), "19.70 + 4.60 + 1.15");
        same("-11.45", a100.path("gap").path("cards"), "14 − 25.45");
        same("0.1451", a100.path("margins").path("jitter").path("applied"), "0.2 × 13.2 / 18.2");
        same("1800", a100.path("queue").path("p95PeakSeconds"), "queue peak");
        assertTrue(a100.path("summary").asText().contains("short by ~11 cards"), a100.path("summary").asText());
    }

    @Test
    void aModelIsFittedOnlyOverTheDaysItWasInTheInventory() throws Exception {
        JsonNode l4 = model(plan(), "NVIDIA L4");
        JsonNode notebook = shape(l4, "notebook");
        JsonNode demand = notebook.path("demand");
        assertEquals(3, demand.path("daysFitted").asInt());
        assertEquals("2031-03-05", demand.path("firstDayFitted").asText());
        same("10.2", demand.path("slopePerDay"), "slope over 5-7 March");
        same("102", demand.path("forecast"), "30.6 + 10.2 × 7");
        same("5", notebook.path("cardsNeeded").path("base"), "102 / 20.4");
        assertEquals("floor", notebook.path("margins").path("failures").path("source").asText());
        same("0.02", notebook.path("margins").path("failures").path("applied"), "floor");
        assertEquals("floor", notebook.path("margins").path("peaks").path("source").asText());
        same("5.1", notebook.path("cardsNeeded").path("total"), "5 / 0.98");
        same("2.9", l4.path("gap").path("cards"), "8 − 5.10");
        assertEquals("floor", l4.path("margins").path("jitter").path("source").asText(), "no shape of it measured");
        assertEquals("degrade", notebook.path("degradesFirst").path("policy").asText());
        assertNull(l4.path("queue").isNull() ? null : l4.path("queue").path("p95PeakSeconds").asText(null));
    }

    @Test
    void badParametersAreProblemsNamingTheField() {
        for (String[] bad : new String[][]{{"horizon", "0d"}, {"horizon", "91d"}, {"horizon", "week"},
                {"history", "3d"}, {"history", "200d"}, {"at", "yesterday"}}) {
            given().queryParam(bad[0], bad[1]).get(PLAN).then().statusCode(400)
                    .contentType("application/problem+json").body(containsString(bad[0]));
        }
        given().queryParam("at", AT).queryParam("history", "7d").get(PLAN).then().statusCode(200)
                .body("horizonDays", equalTo(30));
    }
}
