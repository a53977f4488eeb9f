package io.gpumeter.alert.rest;

import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Fuzz;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded hostile Alertmanager payloads against the webhook: 2xx or a 4xx problem document, never a 5xx; a refused
 * payload records no alert and takes no action; the service stays up.
 */
@QuarkusTest
@TestProfile(WebhookFuzzTest.WithToken.class)
@WithKubernetesTestServer(crud = true)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
class WebhookFuzzTest {

    private static final String WEBHOOK = "/api/v1/alertmanager/webhook";
    private static final int CASES = Fuzz.cases();
    private static final String TOKEN = "fuzz-webhook-token";

    /** The webhook refuses everything without a token; the payloads are what is fuzzed here. */
    public static class WithToken implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.alert.webhook.token", TOKEN);
        }
    }

    @Test
    void alertmanagerPayloads() {
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);
        List<String> seeds = List.of(
                Notifications.firing(Notifications.labels("GpuMissing", "gpu-1"), t0),
                Notifications.resolved(Notifications.labels("XidHardwareError", "gpu-2"), t0, t0.plusSeconds(60)));
        Map<Integer, Integer> statuses = Fuzz.json(21L, seeds).overHttp("alertmanager", CASES, body -> {
            Response r = given().header("Authorization", "Bearer " + TOKEN).contentType("application/json").body(body)
                    .post(WEBHOOK);
            return new Fuzz.Answer(r.statusCode(), r.contentType(), r.asString());
        }, WebhookFuzzTest::state);
        Management.given().get("/q/health/live").then().statusCode(200);
        assertEquals(CASES, statuses.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(statuses.getOrDefault(200, 0) > 0);
    }

    /** The alerts recorded and the actions audited, as the API lists them. */
    private static String state() {
        return given().queryParam("state", "all").get("/api/v1/alerts").asString().length() + "/"
                + given().get("/api/v1/actions").asString().length();
    }
}
