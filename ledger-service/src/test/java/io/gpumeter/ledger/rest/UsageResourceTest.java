package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class UsageResourceTest {

    static String sample(String gpu, String field, double value, String at, String pod) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"node\":\"n1\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field
                + "\",\"value\":" + value + ",\"at\":\"" + at + "\"" + (pod == null ? "" : ",\"namespace\":\"ml\",\"pod\":\"" + pod + "\"") + "}";
    }

    static String batch(String cluster, String... samples) {
        return "{\"cluster\":\"" + cluster + "\",\"samples\":[" + String.join(",", samples) + "]}";
    }

    static String partial(String gpu, String minute, String millis, String values, String pod) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"node\":\"n1\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"SM_ACTIVE\""
                + ",\"minute\":\"" + minute + "\",\"millis\":[" + millis + "],\"values\":[" + values + "]"
                + (pod == null ? "" : ",\"namespace\":\"ml\",\"pod\":\"" + pod + "\"") + "}";
    }

    static String partials(String cluster, String... partials) {
        return "{\"cluster\":\"" + cluster + "\",\"partials\":[" + String.join(",", partials) + "]}";
    }

    static void expectSmActive(String gpu, int minutes, Object... rows) {
        var then = given().queryParam("from", "2026-07-01T00:00:00Z").queryParam("to", "2026-07-02T00:00:00Z")
                .queryParam("field", "SM_ACTIVE").get("/api/v1/gpus/" + gpu + "/usage").then().statusCode(200)
                .body("$", hasSize(minutes));
        for (int i = 0; i < rows.length; i += 4) {
            int row = i / 4;
            then.body("[" + row + "].minute", equalTo(rows[i])).body("[" + row + "].mean", equalTo(rows[i + 1]))
                    .body("[" + row + "].max", equalTo(rows[i + 2])).body("[" + row + "].samples", equalTo(rows[i + 3]));
        }
    }

    @Test
    void partialsAndSamplesFoldToTheSameRollups() {
        // 10:00:00 0.25, 10:00:15 0.75, 10:00:30 0.5 -> mean 1.5 / 3 = 0.5, max 0.75; 10:01:05 1.0 alone.
        given().contentType(ContentType.JSON).body(batch("f1",
                        sample("GPU-F1", "SM_ACTIVE", 0.25, "2026-07-01T10:00:00Z", null),
                        sample("GPU-F1", "SM_ACTIVE", 0.75, "2026-07-01T10:00:15Z", null),
                        sample("GPU-F1", "SM_ACTIVE", 0.5, "2026-07-01T10:00:30Z", null),
                        sample("GPU-F1", "SM_ACTIVE", 1.0, "2026-07-01T10:01:05Z", null)))
                .post("/api/v1/usage").then().statusCode(200).body("accepted", equalTo(4));
        // The same values as three partials, the first minute split over two of them.
        given().contentType(ContentType.JSON).body(partials("f1",
                        partial("GPU-F2", "2026-07-01T10:00:00Z", "0,15000", "0.25,0.75", null),
                        partial("GPU-F2", "2026-07-01T10:01:00Z", "5000", "1.0", null),
                        partial("GPU-F2", "2026-07-01T10:00:00Z", "30000", "0.5", null)))
                .post("/api/v1/usage").then().statusCode(200).body("accepted", equalTo(4)).body("duplicates", equalTo(0));
        for (String gpu : new String[] {"GPU-F1", "GPU-F2"}) {
            expectSmActive(gpu, 2, "2026-07-01T10:00:00Z", 0.5f, 0.75f, 3, "2026-07-01T10:01:00Z", 1.0f, 1.0f, 1);
        }
    }

    @Test
    void aPartialSentTwiceOrOverlappingAnotherCountsEachSecondOnce() {
        double storedBefore = valuesCounted("stored");
        double duplicatesBefore = valuesCounted("duplicate");
        String first = partials("f3", partial("GPU-F3", "2026-07-01T10:00:00Z", "0,15000,30000", "0.25,0.75,0.5", null));
        given().contentType(ContentType.JSON).body(first).post("/api/v1/usage").then().statusCode(200)
                .body("accepted", equalTo(3)).body("duplicates", equalTo(0));
        given().contentType(ContentType.JSON).body(first).post("/api/v1/usage").then().statusCode(200)
                .body("accepted", equalTo(0)).body("duplicates", equalTo(3));
        // Overlapping: second 15 again (0.9, already counted: ignored) and second 45 new (0.1); in the same batch a
        // fresh minute 10:02 (0.3, 0.6 within one second: the earlier 0.3 counts) and a sample on second 30 (counted).
        given().contentType(ContentType.JSON).body("{\"cluster\":\"f3\",\"partials\":["
                        + partial("GPU-F3", "2026-07-01T10:00:00Z", "15400,45000", "0.9,0.1", null) + ","
                        + partial("GPU-F3", "2026-07-01T10:02:00Z", "7900,7100", "0.6,0.3", null) + "],\"samples\":["
                        + sample("GPU-F3", "SM_ACTIVE", 0.99, "2026-07-01T10:00:30.500Z", null) + "]}")
                .post("/api/v1/usage").then().statusCode(200).body("accepted", equalTo(2)).body("duplicates", equalTo(3));
        // 10:00: 0.25 + 0.75 + 0.5 + 0.1 = 1.6 over 4 seconds -> mean 0.4, max 0.75.
        expectSmActive("GPU-F3", 2, "2026-07-01T10:00:00Z", 0.4f, 0.75f, 4, "2026-07-01T10:02:00Z", 0.3f, 0.3f, 1);
        // the intake's counters: 3 + 0 + 2 values stored, 0 + 3 + 3 repeated
        assertEquals(5.0, valuesCounted("stored") - storedBefore);
        assertEquals(6.0, valuesCounted("duplicate") - duplicatesBefore);
    }

    private static double valuesCounted(String outcome) {
        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^gpumeter_ledger_usage_values_total\\{outcome=\""
                + outcome + "\",?\\} (\\S+)$").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0.0;
    }

    @Test
    void aPartialNamingAPodNamesTheCardOfAnAnonymousAllocation() {
        String pod = "{\"cluster\":\"f4\",\"pods\":[{\"uid\":\"w4\",\"namespace\":\"ml\",\"name\":\"trainer-4\",\"resourceVersion\":\"5\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-07-01T09:00:00Z\",\"scheduledAt\":\"2026-07-01T09:00:00Z\","
                + "\"nodeName\":\"n1\",\"gpuResources\":{\"nvidia.com/gpu\":1}}]}";
        given().contentType(ContentType.JSON).body(pod).post("/api/v1/facts").then().statusCode(200);
        given().contentType(ContentType.JSON).body(partials("f4", partial("GPU-W4", "2026-07-01T09:30:00Z", "0,1000", "0.7,0.8", "trainer-4")))
                .post("/api/v1/usage").then().statusCode(200).body("podsBound", equalTo(1));
        given().queryParam("at", "2026-07-01T10:00:00Z").get("/api/v1/gpus/GPU-W4/occupants").then().statusCode(200)
                .body("pod", equalTo(java.util.List.of("trainer-4")));
    }

    @Test
    void badPartialsAreRefusedWholeNamingTheField() {
        given().contentType(ContentType.JSON).body(partials("f5", partial("GPU-F5", "2026-07-01T10:00:00Z", "0", "0.5", null),
                        partial("GPU-F5", "2026-07-01T10:01:00Z", "0,60000", "0.5,0.5", null)))
                .post("/api/v1/usage").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("partials[1].millis[1]"));
        given().contentType(ContentType.JSON).body(partials("f5", partial("GPU-F5", "2026-07-01T10:00:30Z", "0", "0.5", null)))
                .post("/api/v1/usage").then().statusCode(400).body("field", equalTo("partials[0].minute"));
        given().contentType(ContentType.JSON).body(partials("f5", partial("GPU-F5", "2026-07-01T10:00:00Z", "0,1000", "0.5", null)))
                .post("/api/v1/usage").then().statusCode(400).body("field", equalTo("partials[0].values"));
        given().contentType(ContentType.JSON).body(partials("f5", partial("GPU-F5", "2026-07-01T10:00:00Z", "0", "-0.5", null)))
                .post("/api/v1/usage").then().statusCode(400).body("field", equalTo("partials[0].values[0]"));
        expectSmActive("GPU-F5", 0);
    }

    @Test
    void samplesRollUpPerMinuteAndASampleSentTwiceCountsOnce() {
        // minute 10:00: 0.2 at :00, 0.6 at :30 -> mean 0.4, max 0.6; minute 10:01: 1.0 at :15.
        String first = batch("u1", sample("GPU-U1", "SM_ACTIVE", 0.2, "2026-07-01T10:00:00Z", null),
                sample("GPU-U1", "SM_ACTIVE", 0.6, "2026-07-01T10:00:30.250Z", null));
        given().contentType(ContentType.JSON).body(first).post("/api/v1/usage").then().statusCode(200)
                .body("accepted", equalTo(2)).body("duplicates", equalTo(0));
        // The same two again, plus a new one in the next minute: only the new one counts.
        String second = batch("u1", sample("GPU-U1", "SM_ACTIVE", 0.2, "2026-07-01T10:00:00Z", null),
                sample("GPU-U1", "SM_ACTIVE", 0.6, "2026-07-01T10:00:30.250Z", null),
                sample("GPU-U1", "SM_ACTIVE", 1.0, "2026-07-01T10:01:15Z", null));
        given().contentType(ContentType.JSON).body(second).post("/api/v1/usage").then().statusCode(200)
                .body("accepted", equalTo(1)).body("duplicates", equalTo(2));
        given().queryParam("from", "2026-07-01T00:00:00Z").queryParam("to", "2026-07-02T00:00:00Z").queryParam("field", "SM_ACTIVE")
                .get("/api/v1/gpus/GPU-U1/usage").then().statusCode(200)
                .body("$", hasSize(2))
                .body("[0].minute", equalTo("2026-07-01T10:00:00Z"))
                .body("[0].mean", equalTo(0.4f)).body("[0].max", equalTo(0.6f)).body("[0].samples", equalTo(2))
                .body("[1].mean", equalTo(1.0f)).body("[1].samples", equalTo(1));
    }

    @Test
    void samplesOnTheSameSecondOfOneSeriesCountOnce() {
        given().contentType(ContentType.JSON).body(batch("u2", sample("GPU-U2", "GPU_UTIL", 0.5, "2026-07-01T10:00:05.100Z", null),
                sample("GPU-U2", "GPU_UTIL", 0.9, "2026-07-01T10:00:05.900Z", null))).post("/api/v1/usage").then()
                .statusCode(200).body("accepted", equalTo(1)).body("duplicates", equalTo(1));
    }

    @Test
    void podLabelsOnAWholeCardNameTheCardOfAnAnonymousAllocation() {
        String pod = "{\"cluster\":\"u3\",\"pods\":[{\"uid\":\"w1\",\"namespace\":\"ml\",\"name\":\"trainer-0\",\"resourceVersion\":\"5\","
                + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-07-01T09:00:00Z\",\"scheduledAt\":\"2026-07-01T09:00:00Z\","
                + "\"nodeName\":\"n1\",\"gpuResources\":{\"nvidia.com/gpu\":1}}]}";
        given().contentType(ContentType.JSON).body(pod).post("/api/v1/facts").then().statusCode(200);
        given().get("/api/v1/gpus/GPU-W1/occupants").then().statusCode(404);

        given().contentType(ContentType.JSON).body(batch("u3", sample("GPU-W1", "GPU_UTIL", 0.7, "2026-07-01T09:30:00Z", "trainer-0")))
                .post("/api/v1/usage").then().statusCode(200).body("podsBound", equalTo(1));
        given().queryParam("at", "2026-07-01T10:00:00Z").get("/api/v1/gpus/GPU-W1/occupants").then().statusCode(200)
                .body("pod", equalTo(java.util.List.of("trainer-0"))).body("[0].unit.kind", equalTo("WHOLE"))
                .body("[0].unit.source", equalTo("device-plugin+exporter-labels"));
        // Before the pod was scheduled the card was not its.
        given().queryParam("at", "2026-07-01T08:00:00Z").get("/api/v1/gpus/GPU-W1/occupants").then().statusCode(200)
                .body("$", hasSize(0));
    }

    @Test
    void badSamplesAreRefusedWhole() {
        given().contentType(ContentType.JSON).body(batch("u4", sample("GPU-X", "SM_ACTIVE", 0.5, "2026-07-01T10:00:00Z", null),
                "{\"gpuUuid\":\"GPU-X\",\"scope\":\"DEVICE\",\"field\":\"SM_ACTIVE\",\"value\":-1,\"at\":\"2026-07-01T10:00:01Z\"}"))
                .post("/api/v1/usage").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("samples[1].value"));
        given().contentType(ContentType.JSON).body(batch("u4", "{\"gpuUuid\":\"GPU-X\",\"scope\":\"DEVICE\",\"field\":\"HEAT\",\"value\":1,\"at\":\"2026-07-01T10:00:01Z\"}"))
                .post("/api/v1/usage").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("samples[0].field"));
        given().queryParam("from", "2026-07-01T00:00:00Z").queryParam("to", "2026-07-02T00:00:00Z")
                .get("/api/v1/gpus/GPU-X/usage").then().statusCode(200).body("$", hasSize(0));
        given().queryParam("from", "2026-07-01T00:00:00Z").queryParam("to", "2026-07-02T00:00:00Z").queryParam("field", "HEAT")
                .get("/api/v1/gpus/GPU-X/usage").then().statusCode(400).body("field", equalTo("field"));
    }
}
