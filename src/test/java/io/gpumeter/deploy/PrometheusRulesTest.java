package io.gpumeter.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * k8s/monitoring/prometheusrule.yaml: valid for promtool, every alert unit-tested firing and quiet, and built only
 * on series that exist.
 */
class PrometheusRulesTest {

    private static final String RULES_FILE = "gpumeter-rules.yaml";
    private static final Path TESTS = Repo.k8s().resolve("monitoring/tests/prometheusrule-test.yaml");

    @Test
    void isAPrometheusOperatorRule() {
        JsonNode rule = Monitoring.prometheusRule();
        assertEquals("monitoring.coreos.com/v1", rule.path("apiVersion").asText());
        assertEquals("PrometheusRule", rule.path("kind").asText());
        assertFalse(Monitoring.alerts().isEmpty());
        Set<String> names = new HashSet<>();
        Monitoring.alerts().forEach(a -> assertTrue(names.add(a.get("alert").asText()), "duplicate alert " + a.get("alert")));
    }

    @Test
    void promtoolChecksTheRules(@TempDir Path dir) throws IOException {
        Path promtool = Tools.promtool();
        writeRules(dir);
        Tools.Result result = Tools.run(dir, List.of(promtool.toString(), "check", "rules", RULES_FILE));
        assertTrue(result.ok(), "promtool check rules:\n" + result.output());
    }

    @Test
    void promtoolUnitTestsPass(@TempDir Path dir) throws IOException {
        Path promtool = Tools.promtool();
        writeRules(dir);
        Files.copy(TESTS, dir.resolve("prometheusrule-test.yaml"));
        Tools.Result result = Tools.run(dir, List.of(promtool.toString(), "test", "rules", "prometheusrule-test.yaml"));
        assertTrue(result.ok(), "promtool test rules:\n" + result.output());
        assertTrue(result.output().contains("SUCCESS"), result.output());
    }

    @Test
    void everyAlertHasAFiringAndAQuietUnitTest() {
        JsonNode tests = Yaml.read(TESTS);
        assertEquals(List.of(RULES_FILE), textList(tests.path("rule_files")), "the unit tests load the extracted rule groups");
        Set<String> firing = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();
        Set<String> exprTested = new TreeSet<>();
        for (JsonNode test : tests.path("tests")) {
            for (JsonNode case_ : test.path("alert_rule_test")) {
                String name = case_.path("alertname").asText();
                (case_.path("exp_alerts").isEmpty() ? quiet : firing).add(name);
            }
            for (JsonNode case_ : test.path("promql_expr_test")) {
                exprTested.addAll(PromQl.metricNames(case_.path("expr").asText()));
            }
        }
        for (JsonNode alert : Monitoring.alerts()) {
            String name = alert.get("alert").asText();
            assertTrue(firing.contains(name), name + " has no unit test in which it fires");
            assertTrue(quiet.contains(name), name + " has no unit test in which it stays quiet");
        }
        for (String record : Monitoring.recordNames()) {
            assertTrue(exprTested.contains(record), "recording rule " + record + " has no promql_expr_test");
        }
    }

    @Test
    void everyAlertCarriesTheLabelsAndAnnotationsAlertServiceUses() {
        for (JsonNode alert : Monitoring.alerts()) {
            String name = alert.get("alert").asText();
            assertTrue(Set.of("critical", "warning", "info").contains(alert.path("labels").path("severity").asText()), name + ": severity");
            assertEquals("true", alert.path("labels").path("gpumeter").asText(), name + ": gpumeter=\"true\" routes it to alert-service");
            for (String a : List.of("summary", "description", "runbook_url")) {
                assertFalse(alert.path("annotations").path(a).asText().isBlank(), name + ": annotation " + a);
            }
            assertTrue(alert.path("annotations").path("runbook_url").asText().endsWith("#" + name), name + ": runbook anchor");
            String expr = alert.get("expr").asText();
            if (expr.contains("DCGM_FI_")) {
                assertTrue(expr.contains("\"node\"") && expr.contains("\"gpu_uuid\""),
                        name + ": GPU alerts carry node and gpu_uuid for the runbook actions");
            }
        }
    }

    @Test
    void rulesSelectOnlySeriesThatExist() {
        Set<String> known = Monitoring.knownSeries();
        for (JsonNode rule : Monitoring.rules()) {
            String id = rule.has("alert") ? rule.get("alert").asText() : rule.get("record").asText();
            Set<String> used = PromQl.metricNames(rule.get("expr").asText());
            assertFalse(used.isEmpty(), id + " selects nothing");
            Set<String> unknown = new TreeSet<>(used);
            unknown.removeAll(known);
            unknown.removeAll(Monitoring.PROMETHEUS_ALERT_SERIES);
            assertTrue(unknown.isEmpty(), id + " selects series nobody exposes: " + unknown);
        }
    }

    /** The rule groups of the PrometheusRule as a plain Prometheus rule file, which is what promtool reads. */
    private static void writeRules(Path dir) throws IOException {
        Files.writeString(dir.resolve(RULES_FILE), Yaml.write(Monitoring.prometheusRule().path("spec")));
    }

    private static List<String> textList(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
