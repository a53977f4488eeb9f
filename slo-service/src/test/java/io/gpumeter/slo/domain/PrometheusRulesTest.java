package io.gpumeter.slo.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrometheusRulesTest {

    private static final PrometheusRules.Metrics VLLM = new PrometheusRules.Metrics("service", "namespace",
            "vllm:time_to_first_token_seconds", "vllm:inter_token_latency_seconds", "vllm:e2e_request_latency_seconds",
            Optional.empty(), Optional.empty());

    private static SloDefinition slo(String name, String sli, String per, String thresholdMs, String target) {
        return SloDefinition.of(name, new SloSelector.Parts("chat", null, "ml"), sli,
                per == null ? null : new BigDecimal("99"), thresholdMs == null ? null : new BigDecimal(thresholdMs),
                per, per != null, new BigDecimal(target), "P30D", Duration.ofDays(35));
    }

    @ParameterizedTest
    @CsvSource({"PT5M, 5m", "PT30M, 30m", "PT1H, 1h", "PT6H, 6h", "P3D, 3d", "PT90M, 90m"})
    void durationsPrintInPrometheusUnits(String iso, String prom) {
        assertEquals(prom, PrometheusRules.prom(Duration.parse(iso)));
    }

    @ParameterizedTest
    @CsvSource({"300, 0.3, 0\\\\.30*", "1000, 1, 1(\\\\.0+)?", "2500, 2.5, 2\\\\.50*", "20, 0.02, 0\\\\.020*"})
    void thresholdsMatchTheBucketBoundOfGoAndPythonClients(String ms, String seconds, String regex) {
        String s = PrometheusRules.seconds(slo("x", "TTFT", "REQUEST", ms, "0.99"));
        assertEquals(seconds, s);
        assertEquals(regex, PrometheusRules.leRegex(s));
    }

    @Test
    void aPerRequestSloBecomesRatiosOverEachWindowAndThreeAlerts() {
        String yaml = PrometheusRules.render(List.of(slo("chat-e2e", "E2E", "REQUEST", "300", "0.99")),
                BurnAlert.WORKBOOK, VLLM);
        assertTrue(yaml.startsWith(PrometheusRules.HEADER + "groups:\n  - name: slo-chat-e2e\n"), yaml);
        assertTrue(yaml.contains("""
                    - record: slo:sli_error:ratio_rate5m
                      expr: |-
                        1 - (
                          sum(rate(vllm:e2e_request_latency_seconds_bucket{service="chat",namespace="ml",le=~"0\\\\.30*"}[5m]))
                          /
                          sum(rate(vllm:e2e_request_latency_seconds_count{service="chat",namespace="ml"}[5m]))
                        )
                """), yaml);
        assertTrue(yaml.contains("""
                        slo:sli_error:ratio_rate1h{slo="chat-e2e"} > (14.4 * 0.01)
                        and
                        slo:sli_error:ratio_rate5m{slo="chat-e2e"} > (14.4 * 0.01)
                """), yaml);
        assertTrue(yaml.contains("        service: 'chat'\n        namespace: 'ml'\n"), yaml);
        // windows 5m, 30m, 1h, 6h, 3d and three alerts
        assertEquals(5, yaml.split("- record: ").length - 1);
        assertEquals(3, yaml.split("- alert: ").length - 1);
    }

    @Test
    void availabilityWithoutItsCountersIsLeftOutSayingWhy() {
        String yaml = PrometheusRules.render(List.of(slo("chat-up", "AVAILABILITY", null, null, "0.999")),
                BurnAlert.WORKBOOK, VLLM);
        assertTrue(yaml.contains("# chat-up skipped: AVAILABILITY needs gpumeter.slo.rules.requests-metric"), yaml);
        assertTrue(yaml.endsWith("groups:\n  # chat-up skipped: AVAILABILITY needs gpumeter.slo.rules.requests-metric"
                + " and gpumeter.slo.rules.errors-metric\n  []\n"), yaml);
    }

    @Test
    void aServiceSloStoredWithoutItsNamespaceIsLeftOutRatherThanMatchingEveryNamespace() {
        String yaml = PrometheusRules.render(List.of(SloDefinition.of("chat-ttft", "chat", "TTFT", new BigDecimal("99"),
                new BigDecimal("300"), "MINUTE", true, new BigDecimal("0.99"), "P30D", Duration.ofDays(35))),
                BurnAlert.WORKBOOK, VLLM);
        assertEquals(PrometheusRules.HEADER + "groups:\n  # chat-ttft skipped: its selector names no namespace (stored"
                + " before services belonged to a namespace); replace it with selector.namespace\n  []\n", yaml);
    }

    @Test
    void aTenantSloIsLeftOutWithAReason() {
        SloDefinition tenant = SloDefinition.of("acme-ttft", new SloSelector.Parts(null, "acme", null), "TTFT",
                new BigDecimal("99"), new BigDecimal("300"), "MINUTE", true, new BigDecimal("0.99"), "P30D",
                Duration.ofDays(35));
        String yaml = PrometheusRules.render(List.of(tenant), BurnAlert.WORKBOOK, VLLM);
        assertEquals(PrometheusRules.HEADER + "groups:\n  # acme-ttft skipped: a tenant selector needs the ledger's"
                + " pod to tenant history, which Prometheus does not have\n  []\n", yaml);
    }
}
