package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * The bulk reads against a hand-made fleet (cluster "bulk"): pod a/train (tenant acme) 10:00-12:00 and pod g/infer
 * (tenant globex) 11:00-12:00 share card GPU-bulk-1 on node bulk-n1, half a card each; pod a/eval (acme) holds half of
 * GPU-bulk-2 on bulk-n2 from 10:30 and still runs. Usage: GPU-bulk-1's GPU_UTIL reads 40 and 60 in minute 10:00 and
 * 20 in 10:01; GPU-bulk-2's SM_ACTIVE reads 0.5 in 10:00.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class BulkReadsResourceTest {

    private static final String DAY = "2026-06-07T";

    static final String FACTS = """
            {"cluster":"bulk",
             "namespaces":[
              {"name":"a","uid":"bulk-ns-a","resourceVersion":"1","type":"ADDED","observedAt":"2026-06-01T00:00:00Z",
               "labels":{"gpumeter.io/tenant":"acme"},"labelTimes":{"gpumeter.io/tenant":"2026-05-01T00:00:00Z"}},
              {"name":"g","uid":"bulk-ns-g","resourceVersion":"2","type":"ADDED","observedAt":"2026-06-01T00:00:00Z",
               "labels":{"gpumeter.io/tenant":"globex"},"labelTimes":{"gpumeter.io/tenant":"2026-05-01T00:00:00Z"}}],
             "nodes":[
              {"name":"bulk-n1","uid":"bulk-n1","resourceVersion":"3","type":"ADDED","observedAt":"2026-06-01T00:00:00Z",
               "labels":{"nvidia.com/gpu.product":"NVIDIA-H100-80GB-HBM3","nvidia.com/gpu.memory":"81920"},
               "gpus":[{"uuid":"GPU-bulk-1","model":"NVIDIA-H100-80GB-HBM3","memoryMib":163840,"cores":100,"splitCount":10}]},
              {"name":"bulk-n2","uid":"bulk-n2","resourceVersion":"4","type":"ADDED","observedAt":"2026-06-01T00:00:00Z",
               "labels":{"nvidia.com/gpu.product":"NVIDIA-H100-80GB-HBM3","nvidia.com/gpu.memory":"81920"},
               "gpus":[{"uuid":"GPU-bulk-2","model":"NVIDIA-H100-80GB-HBM3","memoryMib":163840,"cores":100,"splitCount":10}]}],
             "pods":[
              {"uid":"bulk-p1","namespace":"a","name":"train","resourceVersion":"10","type":"MODIFIED","observedAt":"2026-06-07T12:00:01Z",
               "scheduledAt":"2026-06-07T10:00:00Z","nodeName":"bulk-n1","allTerminated":true,"lastFinishedAt":"2026-06-07T12:00:00Z",
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":8192,"nvidia.com/gpucores":50},
               "vgpus":[{"container":0,"uuid":"GPU-bulk-1","type":"NVIDIA","memoryMib":8192,"cores":50}],"hamiBindPhase":"success","hamiNode":"bulk-n1"},
              {"uid":"bulk-p2","namespace":"g","name":"infer","resourceVersion":"11","type":"MODIFIED","observedAt":"2026-06-07T12:00:01Z",
               "scheduledAt":"2026-06-07T11:00:00Z","nodeName":"bulk-n1","allTerminated":true,"lastFinishedAt":"2026-06-07T12:00:00Z",
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":8192,"nvidia.com/gpucores":50},
               "vgpus":[{"container":0,"uuid":"GPU-bulk-1","type":"NVIDIA","memoryMib":8192,"cores":50}],"hamiBindPhase":"success","hamiNode":"bulk-n1"},
              {"uid":"bulk-p3","namespace":"a","name":"eval","resourceVersion":"12","type":"MODIFIED","observedAt":"2026-06-07T12:00:01Z",
               "scheduledAt":"2026-06-07T10:30:00Z","nodeName":"bulk-n2","phase":"Running",
               "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":8192,"nvidia.com/gpucores":50},
               "vgpus":[{"container":0,"uuid":"GPU-bulk-2","type":"NVIDIA","memoryMib":8192,"cores":50}],"hamiBindPhase":"success","hamiNode":"bulk-n2"}]}
            """;

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (!loaded) {
            given().contentType(ContentType.JSON).body(FACTS).post("/api/v1/facts").then().statusCode(200);
            given().contentType(ContentType.JSON).body(UsageResourceTest.batch("bulk",
                            UsageResourceTest.sample("GPU-bulk-1", "GPU_UTIL", 40, DAY + "10:00:00Z", null),
                            UsageResourceTest.sample("GPU-bulk-1", "GPU_UTIL", 60, DAY + "10:00:30Z", null),
                            UsageResourceTest.sample("GPU-bulk-1", "GPU_UTIL", 20, DAY + "10:01:00Z", null),
                            UsageResourceTest.sample("GPU-bulk-2", "SM_ACTIVE", 0.5, DAY + "10:00:10Z", null)))
                    .post("/api/v1/usage").then().statusCode(200);
            loaded = true;
        }
    }

    static ValidatableResponse fleet(Map<String, String> params) {
        return given().queryParams(params).get("/api/v1/fleet/occupants").then();
    }

    @Test
    void theFleetsOccupantsAtAnInstantAreEveryNodesOccupants() {
        String answer = fleet(Map.of("cluster", "bulk", "at", DAY + "11:30:00Z")).statusCode(200)
                .body("pod", contains("train", "infer", "eval"))
                .body("node", contains("bulk-n1", "bulk-n1", "bulk-n2"))
                .body("gpuUuid", contains("GPU-bulk-1", "GPU-bulk-1", "GPU-bulk-2"))
                .body("tenant", contains("acme", "globex", "acme"))
                .body("fraction", contains(0.5f, 0.5f, 0.5f))
                .body("since", contains(DAY + "10:00:00Z", DAY + "11:00:00Z", DAY + "10:30:00Z")).extract().asString();
        // alert-service reads the fleet's occupants (and each node's, each card's: the same rows) from this answer
        Contract.record("ledger", "occupants", answer);
        // a card's own occupants are the same rows, cut to the card: the console's Card page reads them
        String card = given().queryParam("at", DAY + "11:30:00Z").get("/api/v1/gpus/GPU-bulk-1/occupants").then().statusCode(200)
                .body("pod", contains("train", "infer")).body("tenant", contains("acme", "globex")).extract().asString();
        Contract.record("ledger", "card-occupants", card);
        fleet(Map.of("cluster", "bulk", "at", DAY + "10:15:00Z")).statusCode(200).body("pod", contains("train"));
        fleet(Map.of("cluster", "bulk", "at", DAY + "10:45:00Z")).statusCode(200).body("pod", contains("train", "eval"));
        fleet(Map.of("cluster", "bulk", "at", DAY + "12:30:00Z")).statusCode(200).body("pod", contains("eval"));
        fleet(Map.of("cluster", "bulk", "at", DAY + "09:00:00Z")).statusCode(200).body("$", empty());
        // the same rows as each node's own read
        List<String> perNode = given().queryParam("at", DAY + "11:30:00Z").get("/api/v1/nodes/bulk-n1/occupants")
                .then().statusCode(200).extract().jsonPath().getList("pod");
        fleet(Map.of("node", "bulk-n1", "at", DAY + "11:30:00Z")).statusCode(200).body("pod", equalTo(perNode));
    }

    @Test
    void theFleetsOccupantsNarrowByNodeNamespaceAndTenant() {
        fleet(Map.of("node", "bulk-n2", "at", DAY + "11:30:00Z")).statusCode(200).body("pod", contains("eval"));
        fleet(Map.of("cluster", "bulk", "namespace", "g", "at", DAY + "11:30:00Z")).statusCode(200)
                .body("pod", contains("infer"));
        fleet(Map.of("cluster", "bulk", "tenant", "acme", "at", DAY + "11:30:00Z")).statusCode(200)
                .body("pod", contains("train", "eval"));
        fleet(Map.of("cluster", "bulk", "tenant", "nobody", "at", DAY + "11:30:00Z")).statusCode(200).body("$", empty());
        fleet(Map.of("cluster", "elsewhere", "at", DAY + "11:30:00Z")).statusCode(200).body("$", empty());
        fleet(Map.of("node", "bulk-n9", "at", DAY + "11:30:00Z")).statusCode(200).body("$", empty());
    }

    @Test
    void aBadInstantIsAProblemNamingIt() {
        fleet(Map.of("at", "noon")).statusCode(400).contentType("application/problem+json").body("field", equalTo("at"));
    }

    static ValidatableResponse holdings(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/v1/holdings").then();
    }

    static String pods(String... keys) {
        return java.util.Arrays.stream(keys).map(k -> {
            int slash = k.indexOf('/');
            return "{\"namespace\":\"" + k.substring(0, slash) + "\",\"pod\":\"" + k.substring(slash + 1) + "\"}";
        }).collect(Collectors.joining(",", "[", "]"));
    }

    @Test
    void eachPodsHoldingsAreClippedToTheWindowInTheOrderAsked() {
        String answer = holdings("{\"from\":\"" + DAY + "10:30:00Z\",\"to\":\"" + DAY + "11:30:00Z\",\"cluster\":\"bulk\","
                + "\"pods\":" + pods("a/train", "g/infer", "a/eval", "a/nobody", "a/train") + "}").statusCode(200)
                .body("namespace", contains("a", "g", "a", "a"))
                .body("pod", contains("train", "infer", "eval", "nobody"))
                .body("[0].units", hasSize(1))
                .body("[0].units[0].from", equalTo(DAY + "10:30:00Z"))
                .body("[0].units[0].to", equalTo(DAY + "11:30:00Z"))
                .body("[0].units[0].occupant.gpuUuid", equalTo("GPU-bulk-1"))
                .body("[0].units[0].occupant.node", equalTo("bulk-n1"))
                .body("[0].units[0].occupant.tenant", equalTo("acme"))
                .body("[0].units[0].occupant.since", equalTo(DAY + "10:00:00Z"))
                .body("[0].units[0].occupant.until", equalTo(DAY + "12:00:00Z"))
                .body("[1].units", hasSize(1))
                .body("[1].units[0].from", equalTo(DAY + "11:00:00Z"))
                .body("[1].units[0].to", equalTo(DAY + "11:30:00Z"))
                .body("[1].units[0].occupant.tenant", equalTo("globex"))
                .body("[2].units", hasSize(1))
                .body("[2].units[0].from", equalTo(DAY + "10:30:00Z"))
                .body("[2].units[0].to", equalTo(DAY + "11:30:00Z"))
                .body("[2].units[0].occupant.gpuUuid", equalTo("GPU-bulk-2"))
                .body("[2].units[0].occupant.until", nullValue())
                .body("[3].units", empty()).extract().asString();
        Contract.record("ledger", "holdings", answer); // slo-service places pods on cards from this answer
        // after train ended: nothing for it; eval still held to the window's end
        holdings("{\"from\":\"" + DAY + "12:30:00Z\",\"to\":\"" + DAY + "13:00:00Z\",\"pods\":"
                + pods("a/train", "a/eval") + "}").statusCode(200)
                .body("[0].units", empty())
                .body("[1].units[0].from", equalTo(DAY + "12:30:00Z"))
                .body("[1].units[0].to", equalTo(DAY + "13:00:00Z"));
        holdings("{\"from\":\"" + DAY + "10:30:00Z\",\"to\":\"" + DAY + "11:30:00Z\",\"cluster\":\"elsewhere\",\"pods\":"
                + pods("a/train") + "}").statusCode(200).body("[0].units", empty());
    }

    @Test
    void aBadHoldingsReadIsAProblemNamingTheField() {
        String window = "\"from\":\"" + DAY + "10:00:00Z\",\"to\":\"" + DAY + "11:00:00Z\"";
        holdings("{\"to\":\"" + DAY + "11:00:00Z\",\"pods\":" + pods("a/train") + "}").statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("from"));
        holdings("{\"from\":\"" + DAY + "11:00:00Z\",\"to\":\"" + DAY + "10:00:00Z\",\"pods\":" + pods("a/train") + "}")
                .statusCode(400).body("field", equalTo("to"));
        holdings("{" + window + "}").statusCode(400).contentType("application/problem+json").body("field", equalTo("pods"));
        holdings("{" + window + ",\"pods\":[]}").statusCode(400).body("field", equalTo("pods"));
        holdings("{" + window + ",\"pods\":[{\"namespace\":\"a\",\"pod\":\"x\"},{\"namespace\":\"a\"}]}").statusCode(400)
                .body("field", equalTo("pods[1].pod"));
        holdings("{" + window + ",\"pods\":[{\"pod\":\"x\"}]}").statusCode(400).body("field", equalTo("pods[0].namespace"));
        String many = IntStream.range(0, OccupantResource.MAX_PODS + 1).mapToObj(i -> "{\"namespace\":\"a\",\"pod\":\"p" + i + "\"}")
                .collect(Collectors.joining(",", "[", "]"));
        holdings("{" + window + ",\"pods\":" + many + "}").statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("pods")).body("detail", containsString("at most " + OccupantResource.MAX_PODS));
        holdings("{" + window + ",\"pods\":").statusCode(400).contentType("application/problem+json");
    }

    static ValidatableResponse cardHoldings(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/v1/card-holdings").then();
    }

    @Test
    void whatWasHeldOnEachCardIsClippedToTheWindowInTheOrderAsked() {
        String answer = cardHoldings("{\"from\":\"" + DAY + "10:30:00Z\",\"to\":\"" + DAY + "11:30:00Z\",\"cluster\":\"bulk\","
                + "\"gpus\":[\"GPU-bulk-2\",\"GPU-bulk-1\",\"GPU-bulk-none\"]}").statusCode(200)
                .body("gpuUuid", contains("GPU-bulk-2", "GPU-bulk-1", "GPU-bulk-none"))
                .body("[0].units.occupant.pod", contains("eval"))
                .body("[0].units[0].from", equalTo(DAY + "10:30:00Z"))
                .body("[0].units[0].to", equalTo(DAY + "11:30:00Z"))
                .body("[1].units.occupant.pod", contains("train", "infer"))
                .body("[1].units.from", contains(DAY + "10:30:00Z", DAY + "11:00:00Z"))
                .body("[1].units.to", contains(DAY + "11:30:00Z", DAY + "11:30:00Z"))
                .body("[1].units.occupant.tenant", contains("acme", "globex"))
                .body("[2].units", empty()).extract().asString();
        Contract.record("ledger", "card-holdings", answer); // slo-service finds a card's neighbours from this answer
        cardHoldings("{\"from\":\"" + DAY + "11:45:00Z\",\"to\":\"" + DAY + "12:15:00Z\",\"gpus\":[\"GPU-bulk-1\"]}")
                .statusCode(200)
                .body("[0].units.occupant.pod", contains("train", "infer"))
                .body("[0].units.from", contains(DAY + "11:45:00Z", DAY + "11:45:00Z"))
                .body("[0].units.to", contains(DAY + "12:00:00Z", DAY + "12:00:00Z"));
    }

    @Test
    void aBadCardHoldingsReadIsAProblemNamingTheField() {
        String window = "\"from\":\"" + DAY + "10:00:00Z\",\"to\":\"" + DAY + "11:00:00Z\"";
        cardHoldings("{\"to\":\"" + DAY + "11:00:00Z\",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("from"));
        cardHoldings("{" + window + "}").statusCode(400).contentType("application/problem+json").body("field", equalTo("gpus"));
        cardHoldings("{" + window + ",\"gpus\":[null]}").statusCode(400).body("field", equalTo("gpus[0]"));
        String many = Collections.nCopies(CardUsageResource.MAX_CARDS + 1, "\"GPU-x\"").stream()
                .collect(Collectors.joining(",", "[", "]"));
        cardHoldings("{" + window + ",\"gpus\":" + many + "}").statusCode(400).body("field", equalTo("gpus"))
                .body("detail", containsString("at most " + CardUsageResource.MAX_CARDS));
    }

    static ValidatableResponse usage(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/v1/usage/series").then();
    }

    @Test
    void eachCardsUsageComesInTheOrderAskedAsItsOwnReadAnswersIt() {
        String window = "\"from\":\"" + DAY + "10:00:00Z\",\"to\":\"" + DAY + "10:05:00Z\"";
        String answer = usage("{" + window + ",\"gpus\":[\"GPU-bulk-2\",\"GPU-bulk-1\",\"GPU-bulk-none\",\"GPU-bulk-2\"]}")
                .statusCode(200)
                .body("gpuUuid", contains("GPU-bulk-2", "GPU-bulk-1", "GPU-bulk-none"))
                .body("[0].points.field", contains("SM_ACTIVE"))
                .body("[0].points.mean", contains(0.5f))
                .body("[1].points.field", contains("GPU_UTIL", "GPU_UTIL"))
                .body("[1].points.minute", contains(DAY + "10:00:00Z", DAY + "10:01:00Z"))
                .body("[1].points.mean", contains(50.0f, 20.0f))
                .body("[1].points.max", contains(60.0f, 20.0f))
                .body("[1].points.samples", contains(2, 1))
                .body("[2].points", empty()).extract().asString();
        Contract.record("ledger", "usage-series", answer); // slo-service's and alert-service's usage reads
        usage("{\"from\":\"" + DAY + "10:01:00Z\",\"to\":\"" + DAY + "10:05:00Z\",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(200)
                .body("[0].points.mean", contains(20.0f));
        usage("{" + window + ",\"field\":\"SM_ACTIVE\",\"gpus\":[\"GPU-bulk-1\",\"GPU-bulk-2\"]}").statusCode(200)
                .body("[0].points", empty()).body("[1].points.field", contains("SM_ACTIVE"));
        String card = given().queryParam("from", DAY + "10:00:00Z").queryParam("to", DAY + "10:05:00Z")
                .get("/api/v1/gpus/GPU-bulk-1/usage").then().statusCode(200).extract().asString();
        Contract.record("ledger", "card-usage", card); // the console's Card page draws a card's own curves from it
        List<Object> own = new JsonPath(card).getList("$");
        usage("{" + window + ",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(200).body("[0].points", equalTo(own));
    }

    /**
     * GPU-bulk-1's GPU_UTIL over 10:00-10:05 in one span of five minutes: 40 and 60 in 10:00 (mean 50 of 2 samples)
     * and 20 in 10:01 (1 sample) are (40 + 60 + 20) / 3 = 40, the largest 60, 3 samples over 120 seconds; in spans of
     * one minute each minute stays as stored.
     */
    @Test
    void aStepFoldsEachSeriesIntoSpansWhoseMeanIsTheMeanOfTheirSamples() {
        String window = "\"from\":\"" + DAY + "10:00:00Z\",\"to\":\"" + DAY + "10:05:00Z\"";
        usage("{" + window + ",\"step\":\"PT5M\",\"gpus\":[\"GPU-bulk-1\",\"GPU-bulk-2\"]}").statusCode(200)
                .body("[0].points.field", contains("GPU_UTIL"))
                .body("[0].points.minute", contains(DAY + "10:00:00Z"))
                .body("[0].points.mean", contains(40.0f))
                .body("[0].points.max", contains(60.0f))
                .body("[0].points.samples", contains(3))
                .body("[0].points.seconds", contains(120))
                .body("[1].points.mean", contains(0.5f));
        usage("{" + window + ",\"step\":\"PT1M\",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(200)
                .body("[0].points.minute", contains(DAY + "10:00:00Z", DAY + "10:01:00Z"))
                .body("[0].points.mean", contains(50.0f, 20.0f));
        usage("{" + window + ",\"step\":\"PT30S\",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("step"));
        usage("{" + window + ",\"step\":\"PT90S\",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400).body("field", equalTo("step"));
        usage("{" + window + ",\"step\":\"soon\",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400).body("field", equalTo("step"));
    }

    /**
     * GPU-bulk-3 measured four fields at 10:02:00; a read of the activity fields (SM_ACTIVE, GR_ENGINE_ACTIVE,
     * GPU_UTIL) answers its SM_ACTIVE 0.8 and GPU_UTIL 0.9 alone, by field name, where a read of every field answers
     * its power and memory too.
     */
    @Test
    void aReadOfSeveralFieldsAnswersThoseFieldsOnly() {
        given().contentType(ContentType.JSON).body(UsageResourceTest.batch("bulk",
                        UsageResourceTest.sample("GPU-bulk-3", "SM_ACTIVE", 0.8, DAY + "10:02:00Z", null),
                        UsageResourceTest.sample("GPU-bulk-3", "GPU_UTIL", 0.9, DAY + "10:02:00Z", null),
                        UsageResourceTest.sample("GPU-bulk-3", "POWER_W", 250, DAY + "10:02:00Z", null),
                        UsageResourceTest.sample("GPU-bulk-3", "FB_USED_MIB", 1000, DAY + "10:02:00Z", null)))
                .post("/api/v1/usage").then().statusCode(200);
        String window = "\"from\":\"" + DAY + "10:00:00Z\",\"to\":\"" + DAY + "10:05:00Z\"";
        usage("{" + window + ",\"fields\":[\"SM_ACTIVE\",\"GR_ENGINE_ACTIVE\",\"GPU_UTIL\"],\"gpus\":[\"GPU-bulk-3\"]}")
                .statusCode(200)
                .body("[0].points.field", contains("GPU_UTIL", "SM_ACTIVE"))
                .body("[0].points.mean", contains(0.9f, 0.8f));
        usage("{" + window + ",\"gpus\":[\"GPU-bulk-3\"]}").statusCode(200)
                .body("[0].points.field", contains("FB_USED_MIB", "GPU_UTIL", "POWER_W", "SM_ACTIVE"));
        usage("{" + window + ",\"fields\":[\"POWER_W\"],\"gpus\":[\"GPU-bulk-3\"]}").statusCode(200)
                .body("[0].points.mean", contains(250.0f));
    }

    @Test
    void aBadFieldListIsAProblemNamingTheEntry() {
        String window = "\"from\":\"" + DAY + "10:00:00Z\",\"to\":\"" + DAY + "10:05:00Z\"";
        usage("{" + window + ",\"fields\":[\"SM_ACTIVE\",\"NOPE\"],\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("fields[1]"));
        usage("{" + window + ",\"fields\":[null],\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400)
                .body("field", equalTo("fields[0]"));
        usage("{" + window + ",\"field\":\"SM_ACTIVE\",\"fields\":[\"GPU_UTIL\"],\"gpus\":[\"GPU-bulk-1\"]}")
                .statusCode(400).contentType("application/problem+json").body("field", equalTo("fields"));
    }

    @Test
    void aBadUsageReadIsAProblemNamingTheField() {
        String window = "\"from\":\"" + DAY + "10:00:00Z\",\"to\":\"" + DAY + "10:05:00Z\"";
        usage("{\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400).contentType("application/problem+json").body("field", equalTo("from"));
        usage("{\"from\":\"2026-06-01T00:00:00Z\",\"to\":\"2026-06-09T00:00:00Z\",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400)
                .body("field", equalTo("to"));
        usage("{" + window + "}").statusCode(400).contentType("application/problem+json").body("field", equalTo("gpus"));
        usage("{" + window + ",\"gpus\":[\"GPU-bulk-1\",\" \"]}").statusCode(400).body("field", equalTo("gpus[1]"));
        usage("{" + window + ",\"field\":\"NOPE\",\"gpus\":[\"GPU-bulk-1\"]}").statusCode(400).body("field", equalTo("field"));
        String many = Collections.nCopies(CardUsageResource.MAX_CARDS + 1, "\"GPU-x\"").stream()
                .collect(Collectors.joining(",", "[", "]"));
        usage("{" + window + ",\"gpus\":" + many + "}").statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("gpus")).body("detail", containsString("at most " + CardUsageResource.MAX_CARDS));
        usage("{" + window + ",\"gpus\":\"GPU-bulk-1\"}").statusCode(400).contentType("application/problem+json");
    }
}
