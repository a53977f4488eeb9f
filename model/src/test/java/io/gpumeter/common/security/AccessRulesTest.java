package io.gpumeter.common.security;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccessRulesTest {

    /** method, path, the roles that may call it (tenant = a tenant-only token). */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "POST;/api/v1/ingest/kubernetes;admin service",
            "POST;/api/v1/ingest/dcgm;admin service ingest",
            "POST;/api/v1/ingest/hami-monitor;admin service ingest",
            "POST;/api/v1/ingest/nvidia-smi;admin service ingest",
            "POST;/api/v1/ingest/kmsg;admin service ingest",
            "POST;/api/v1/ingest/container-log;admin service ingest",
            "POST;/api/v1/ingest/cadvisor;admin service ingest",
            "POST;/api/v1/ingest/node-exporter;admin service ingest",
            "POST;/api/v1/ingest/latency;admin service",
            "POST;/api/v1/ingest/engine-gauges;admin service",
            "POST;/api/v1/ingest/dcgm/extra;admin service",
            "POST;/api/v1/facts;admin service",
            "POST;/api/v1/facts/governance;admin service",
            "POST;/api/v1/facts/live-pods;admin service",
            "POST;/api/v1/usage;admin service",
            "POST;/api/v1/host/minutes;admin service",
            "POST;/api/v1/host/series;admin operator reader service",
            "POST;/api/v1/host/other;admin",
            "GET;/api/v1/usage;admin operator reader service",
            "GET;/api/v1/gpu-hours;admin operator reader service tenant",
            "GET;/api/v1/gpus/GPU-1/occupants;admin operator reader service tenant",
            "GET;/api/v1/gpus/GPU-1/usage;admin operator reader service",
            "GET;/api/v1/nodes/n1/occupants;admin operator reader service tenant",
            "GET;/api/v1/fleet/occupants;admin operator reader service tenant",
            "GET;/api/v1/volcano-jobs;admin operator reader service tenant",
            "POST;/api/v1/volcano-jobs;admin",
            "POST;/api/v1/holdings;admin operator reader service",
            "POST;/api/v1/card-holdings;admin operator reader service",
            "POST;/api/v1/pod-queues;admin operator reader service",
            "POST;/api/v1/failures/pod-incidents;admin operator reader service",
            "POST;/api/v1/failures/other;admin",
            "POST;/api/v1/usage/series;admin operator reader service",
            "GET;/api/v1/usage/series;admin operator reader service",
            "GET;/api/v1/slo-states;admin operator reader service tenant",
            "GET;/api/v1/fragmentation;admin operator reader service",
            "GET;/api/v1/demand;admin operator reader service",
            "POST;/api/v1/demand;admin",
            "GET;/api/v1/capacity;admin operator reader service",
            "GET;/api/v1/capacity/supply;admin operator reader service",
            "GET;/api/v1/reports/monthly;admin operator reader service tenant",
            "GET;/api/v1/reports/monthly/reconciliation;admin operator reader service",
            "POST;/api/v1/reports/monthly/2026-05/close;admin",
            "GET;/api/v1/budgets/acme;admin operator reader service tenant",
            "GET;/api/v1/budgets/acme/forecast;admin operator reader service tenant",
            "GET;/api/v1/budgets;admin operator reader service",
            "PUT;/api/v1/budgets/acme;admin operator",
            "POST;/api/v1/rate-cards;admin operator",
            "DELETE;/api/v1/rate-cards/v1;admin operator",
            "POST;/api/v1/slos;admin operator",
            "PUT;/api/v1/slos/chat-ttft;admin operator",
            "GET;/api/v1/slos;admin operator reader service tenant",
            "GET;/api/v1/slos/chat/status;admin operator reader service",
            "POST;/api/v1/rules/evaluations;admin operator",
            "GET;/api/v1/actions;admin operator reader service",
            "POST;/api/v1/acceptance/runs;admin operator",
            "GET;/api/v1/acceptance/runs;admin operator reader service",
            "GET;/api/v1/acceptance/runs/7/verdict;admin operator reader service",
            "GET;/api/v1/acceptance/runs/7/pack;admin operator reader service",
            "POST;/api/v1/acceptance/runs/7;admin",
            "POST;/api/v1/something-new;admin",
            "DELETE;/api/v1/gpu-hours;admin",
    })
    void decidesEachFamily(String method, String path, String allowed) {
        Set<String> expected = Set.of(allowed.split(" "));
        AccessRule rule = AccessRules.match(method, path);
        Set<String> actual = Arrays.stream(Role.values()).filter(rule::allows)
                .map(r -> r.name().toLowerCase()).collect(Collectors.toSet());
        assertEquals(expected, actual, method + " " + path + " → " + rule.family());
    }

    @Test
    void anIngestTokenReadsNothing() {
        for (AccessRule rule : AccessRules.RULES) {
            if (rule.allows(Role.INGEST)) {
                assertEquals(Set.of("POST"), rule.methods(), rule.family());
                assertTrue(rule.paths().stream().allMatch(p -> p.startsWith("/api/v1/ingest/") && !p.contains("*")),
                        rule.family() + " opens more than named ingest paths to ingest tokens");
            }
        }
        assertFalse(AccessRules.match("GET", "/api/v1/gpu-hours").allows(Role.INGEST));
    }

    @Test
    void theWebhookChecksItsOwnToken() {
        assertTrue(AccessRules.match("POST", "/api/v1/alertmanager/webhook").ownToken());
        assertFalse(AccessRules.match("GET", "/api/v1/alertmanager/webhook").ownToken());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "/api/v1/budgets/*;/api/v1/budgets/acme;true",
            "/api/v1/budgets/*;/api/v1/budgets;false",
            "/api/v1/budgets/*;/api/v1/budgets/acme/forecast;false",
            "/api/v1/facts/**;/api/v1/facts;true",
            "/api/v1/facts/**;/api/v1/facts/governance/x;true",
            "/api/v1/facts/**;/api/v1/factsx;false",
            "/api/v1/gpu-hours;/api/v1/gpu-hours/;true",
            "/api/v1/gpu-hours;/api/v1/gpu-hours/x;false",
    })
    void matchesSegmentBySegment(String pattern, String path, boolean matches) {
        AccessRule rule = new AccessRule("t", "s", Set.of(), java.util.List.of(pattern), Set.of(Role.ADMIN), null, false);
        assertEquals(matches, rule.matches("GET", path));
    }

    @Test
    void aTenantOnlyTokenIsConfinedAndAnyOtherRoleLiftsIt() {
        assertEquals("acme", Caller.of(Set.of("tenant:acme")).confinedTo().orElseThrow());
        assertTrue(Caller.of(Set.of("tenant:acme", "reader")).confinedTo().isEmpty());
        assertTrue(Caller.of(Set.of("tenant:acme", "tenant:beta")).ambiguous());
        assertTrue(Caller.of(Set.of("tenant:")).roles().isEmpty());
        assertTrue(Caller.of(Set.of("Admin", "root")).roles().isEmpty());
        assertEquals("acme", Caller.of(Set.of("tenant:acme", "ingest")).confinedTo().orElseThrow(),
                "ingest reads nothing, so it lifts no confinement");
        assertTrue(Caller.of(Set.of("tenant:acme", "service")).confinedTo().isEmpty());
    }

    @Test
    void theReadmeShowsTheMatrixOfThisTable() throws IOException {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme);
        String matrix = AccessRules.markdownMatrix();
        assertTrue(text.contains(matrix), "README.md's Security section must contain exactly this matrix:\n" + matrix);
    }
}
