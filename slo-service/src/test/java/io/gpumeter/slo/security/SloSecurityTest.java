package io.gpumeter.slo.security;

import io.gpumeter.common.testing.AccessCoverage;
import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** slo-service with authentication on: services push latency, operators define SLOs, readers read. */
@QuarkusTest
@TestProfile(AuthEnabled.class)
@WithTestResource(EmbeddedPostgresResource.class)
class SloSecurityTest {

    private static final String SLO = """
            {"name":"sec-ttft","selector":{"service":"chat","namespace":"ml"},"sli":"TTFT",
             "objective":{"percentile":99,"thresholdMs":300,"per":"MINUTE"},"target":0.99,"window":"P30D"}""";
    private static final String LINE = "{\"service\":\"chat\",\"namespace\":\"ml\",\"pod\":\"chat-0\","
            + "\"ts\":\"2026-05-01T10:00:01Z\",\"ttftMs\":120,\"ok\":true}\n";

    @Test
    void onlyOperatorsDefineSlosAndARefusedWriteStoresNothing() {
        for (String auth : List.of(TestTokens.bearer("reader"), TestTokens.serviceBearer("slo"), TestTokens.bearer("tenant:acme"))) {
            given().header("Authorization", auth).contentType("application/json").body(SLO)
                    .post("/api/v1/slos").then().statusCode(403).contentType("application/problem+json");
        }
        given().header("Authorization", TestTokens.bearer("reader")).get("/api/v1/slos/sec-ttft").then().statusCode(404);
        given().header("Authorization", TestTokens.bearer("operator")).contentType("application/json").body(SLO)
                .post("/api/v1/slos").then().statusCode(201);
        given().header("Authorization", TestTokens.bearer("reader")).get("/api/v1/slos/sec-ttft").then().statusCode(200);
        given().header("Authorization", TestTokens.bearer("reader")).delete("/api/v1/slos/sec-ttft").then().statusCode(403);
    }

    @Test
    void onlyServicesAndAdminsPushLatency() {
        given().contentType("application/x-ndjson").body(LINE.getBytes(java.nio.charset.StandardCharsets.UTF_8)).post("/api/v1/ingest/latency").then().statusCode(401);
        given().header("Authorization", TestTokens.bearer("operator")).contentType("application/x-ndjson").body(LINE.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(403);
        given().header("Authorization", TestTokens.serviceBearer("slo")).contentType("application/x-ndjson").body(LINE.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
    }

    @Test
    void engineGaugesArePushedAsLatencyIs() {
        byte[] gauge = ("{\"service\":\"chat\",\"namespace\":\"ml\",\"pod\":\"chat-0\","
                + "\"ts\":\"2026-05-01T10:00:01Z\",\"kvCacheUsage\":0.5}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        given().contentType("application/x-ndjson").body(gauge).post("/api/v1/ingest/engine-gauges").then().statusCode(401);
        given().header("Authorization", TestTokens.bearer("operator")).contentType("application/x-ndjson").body(gauge)
                .post("/api/v1/ingest/engine-gauges").then().statusCode(403);
        given().header("Authorization", TestTokens.serviceBearer("slo")).contentType("application/x-ndjson").body(gauge)
                .post("/api/v1/ingest/engine-gauges").then().statusCode(200);
        given().header("Authorization", TestTokens.bearer("reader")).queryParam("service", "chat")
                .queryParam("from", "2026-05-01T10:00:00Z").queryParam("to", "2026-05-01T10:01:00Z")
                .get("/api/v1/engine-gauges").then().statusCode(200);
    }

    @Test
    void aTenantTokenListsOnlyTheSlosOfItsTenant() {
        String acme = SLO.replace("sec-ttft", "sec-acme").replace("{\"service\":\"chat\",\"namespace\":\"ml\"}",
                "{\"tenant\":\"acme\"}");
        String beta = SLO.replace("sec-ttft", "sec-beta").replace("{\"service\":\"chat\",\"namespace\":\"ml\"}",
                "{\"tenant\":\"beta\"}");
        for (String slo : List.of(acme, beta)) {
            given().header("Authorization", TestTokens.bearer("operator")).contentType("application/json").body(slo)
                    .post("/api/v1/slos").then().statusCode(201);
        }
        List<String> seen = given().header("Authorization", TestTokens.bearer("tenant:acme")).get("/api/v1/slos")
                .then().statusCode(200).extract().jsonPath().getList("name");
        assertEquals(List.of("sec-acme"), seen);
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("tenant", "beta").get("/api/v1/slos")
                .then().statusCode(403).contentType("application/problem+json");
        given().header("Authorization", TestTokens.bearer("tenant:acme")).get("/api/v1/slos/sec-acme/status")
                .then().statusCode(403);
        assertTrue(given().header("Authorization", TestTokens.bearer("reader")).get("/api/v1/slos").then().statusCode(200)
                .extract().jsonPath().getList("name").containsAll(List.of("sec-acme", "sec-beta")));
    }

    @Test
    void aTenantTokenReadsOnlyTheStatesOfItsTenantsSlosAndNoServiceCurve() {
        String gamma = SLO.replace("sec-ttft", "sec-gamma-states")
                .replace("{\"service\":\"chat\",\"namespace\":\"ml\"}", "{\"tenant\":\"gamma\",\"service\":\"chat\"}");
        String delta = SLO.replace("sec-ttft", "sec-delta-states").replace("{\"service\":\"chat\",\"namespace\":\"ml\"}",
                "{\"tenant\":\"delta\"}");
        for (String slo : List.of(gamma, delta)) {
            given().header("Authorization", TestTokens.bearer("operator")).contentType("application/json").body(slo)
                    .post("/api/v1/slos").then().statusCode(201);
        }
        var gammaStates = given().header("Authorization", TestTokens.bearer("tenant:gamma"))
                .queryParam("from", "2026-05-01T10:00:00Z").queryParam("to", "2026-05-01T11:00:00Z")
                .get("/api/v1/slo-states").then().statusCode(200).extract().jsonPath();
        List<String> seen = gammaStates.getList("slo.name");
        assertTrue(seen.contains("sec-gamma-states"), seen.toString());
        assertTrue(seen.stream().noneMatch(n -> n.startsWith("sec-delta")), seen.toString());
        assertTrue(gammaStates.getList("slo.selector.tenant").stream().allMatch("gamma"::equals));
        assertTrue(gammaStates.getList("latency").stream().allMatch(l -> l == null), "a service's curve merges every tenant");
        given().header("Authorization", TestTokens.bearer("tenant:gamma")).queryParam("tenant", "delta")
                .queryParam("from", "2026-05-01T10:00:00Z").queryParam("to", "2026-05-01T11:00:00Z")
                .get("/api/v1/slo-states").then().statusCode(403).contentType("application/problem+json");
        var all = given().header("Authorization", TestTokens.bearer("reader"))
                .queryParam("from", "2026-05-01T10:00:00Z").queryParam("to", "2026-05-01T11:00:00Z")
                .get("/api/v1/slo-states").then().statusCode(200).extract().jsonPath();
        assertTrue(all.getList("slo.name").containsAll(List.of("sec-gamma-states", "sec-delta-states")));
        assertTrue(all.get("find { it.slo.name == 'sec-gamma-states' }.latency") != null,
                "a fleet read carries the service's curve");
    }

    @Test
    void adminsAndOperatorsSubmitAcceptancePlansFleetRolesReadRunsAndTenantsNeither() {
        String plan = """
                {"name": "sec", "from": "2026-05-01T10:00:00Z", "to": "2026-05-01T11:00:00Z",
                 "cells": [{"name": "a", "workload": "w", "form": "MIG", "selector": {"service": "sec-none"}}],
                 "assertions": [{"name": "p99", "kind": "THRESHOLD", "metric": "P99", "sli": "TTFT", "cell": "a",
                                 "maxMs": 300}]}""";
        for (String auth : List.of(TestTokens.bearer("reader"), TestTokens.serviceBearer("slo"),
                TestTokens.bearer("tenant:acme"))) {
            given().header("Authorization", auth).contentType("application/json").body(plan)
                    .post("/api/v1/acceptance/runs").then().statusCode(403).contentType("application/problem+json");
        }
        String location = given().header("Authorization", TestTokens.bearer("operator")).contentType("application/json")
                .body(plan).post("/api/v1/acceptance/runs").then().statusCode(201).extract().header("Location");
        String run = location.substring(location.indexOf("/api/v1/acceptance/runs"));
        for (String path : List.of("/api/v1/acceptance/runs", run, run + "/verdict", run + "/pack")) {
            for (String auth : List.of(TestTokens.bearer("reader"), TestTokens.serviceBearer("slo"),
                    TestTokens.bearer("admin"), TestTokens.bearer("operator"))) {
                given().header("Authorization", auth).get(path).then().statusCode(200);
            }
            given().header("Authorization", TestTokens.bearer("tenant:acme")).get(path).then().statusCode(403);
            given().get(path).then().statusCode(401);
        }
    }

    @Test
    void aChangesJitterImpactIsAFleetRead() {
        String path = "/api/v1/changes/0123456789abcdef01234567/jitter-impact";
        given().get(path).then().statusCode(401);
        given().header("Authorization", TestTokens.bearer("tenant:acme")).get(path).then().statusCode(403)
                .contentType("application/problem+json");
        // a fleet role gets past the door; its window is checked before the ledger is asked
        given().header("Authorization", TestTokens.bearer("reader")).queryParam("from", "soon").get(path).then()
                .statusCode(400).body("field", org.hamcrest.Matchers.equalTo("from"));
    }

    @Test
    void aServicesDiagnosisIsAFleetReadThatTriageCutsForTenants() {
        String path = "/api/v1/triage/diagnosis";
        given().queryParam("namespace", "ml").queryParam("service", "chat").get(path).then().statusCode(401);
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("namespace", "ml")
                .queryParam("service", "chat").get(path).then().statusCode(403).contentType("application/problem+json");
        // alert-service's token gets past the door; the question is checked before anything is read
        given().header("Authorization", TestTokens.serviceBearer("slo")).queryParam("namespace", "ml")
                .queryParam("service", "chat").queryParam("at", "soon").get(path).then().statusCode(400)
                .body("field", org.hamcrest.Matchers.equalTo("at"));
    }

    @Test
    void everySloOperationBelongsToANamedFamily() {
        String openApi = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().asString();
        assertTrue(AccessCoverage.operations(openApi) >= 8);
        assertEquals(List.of(), AccessCoverage.uncovered(openApi));
    }
}
