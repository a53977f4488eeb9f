package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.InvalidInput;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every acceptance item a review accepts exports a plan slo-service reads: each metric in each clause shape the item
 * takes, read by slo-service's own PlanReader. An item alert-service refuses for a rule of the plan is one slo-service
 * refuses too, so the two sets of rules are the same where they meet.
 */
class AcceptanceExportContractTest {

    private static final Instant FROM = Instant.parse("2026-11-01T00:00:00Z");
    private static final Instant TO = Instant.parse("2026-11-02T00:00:00Z");

    private static String cell(String name) {
        return "{\"name\":\"" + name + "\",\"workload\":\"chat\",\"form\":\"HAMI\",\"selector\":{\"service\":\"chat\","
                + "\"namespace\":\"ml-team\"}}";
    }

    private static ObjectNode export(String assertion, boolean baseline) {
        String item = "{\"kind\":\"ACCEPTANCE_ITEM\",\"cell\":" + cell("shared") + (baseline ? ",\"baseline\":"
                + cell("alone").replace("HAMI", "DEDICATED") : "") + ",\"assertion\":" + assertion + "}";
        Review r = Reviews.of(item);
        return AcceptancePlanExport.plan(r, (AcceptanceItem) Reviews.items(r).get(0), FROM, TO);
    }

    @Test
    void everyMetricInEveryShapeIsAPlanSloServiceReads() {
        List<String> read = new ArrayList<>();
        for (AcceptanceItem.Metric m : AcceptanceItem.Metric.values()) {
            String sli = m.takesSli() ? ",\"sli\":\"TTFT\"" : "";
            String limit = m.inMilliseconds() ? "\"maxMs\":250" : "\"max\":0.5";
            Object threshold = SloPlanReader.read(export("{\"name\":\"t " + m + "\",\"kind\":\"THRESHOLD\",\"metric\":\""
                    + m + "\"" + sli + "," + limit + "}", false));
            Object ratio = SloPlanReader.read(export("{\"name\":\"r " + m + "\",\"kind\":\"RATIO\",\"metric\":\"" + m + "\""
                    + sli + ",\"maxRatio\":1.3}", true));
            for (Object plan : List.of(threshold, ratio)) {
                List<?> clauses = (List<?>) SloPlanReader.get(plan, "assertions");
                assertEquals(1, clauses.size());
                assertEquals(m.name(), String.valueOf(SloPlanReader.get(clauses.get(0), "metric")));
                assertEquals("shared", SloPlanReader.get(clauses.get(0), "cell"));
                assertEquals(m.takesSli() ? "TTFT" : "null", String.valueOf(SloPlanReader.get(clauses.get(0), "sli")),
                        m + "'s SLI reaches slo-service's clause");
                read.add(String.valueOf(SloPlanReader.get(clauses.get(0), "kind")));
            }
        }
        assertEquals(2 * AcceptanceItem.Metric.values().length, read.size());
        Object blocked = SloPlanReader.read(export("{\"name\":\"held back\",\"kind\":\"BLOCKED\",\"namespace\":\"ml-team\","
                + "\"pod\":\"over-quota-0\",\"within\":\"PT5M\"}", false));
        Object clause = ((List<?>) SloPlanReader.get(blocked, "assertions")).get(0);
        assertEquals("BLOCKED", String.valueOf(SloPlanReader.get(clause, "kind")));
        assertEquals(java.time.Duration.ofMinutes(5), SloPlanReader.get(clause, "within"));
        Object ratio = ((List<?>) SloPlanReader.get(SloPlanReader.read(export("{\"name\":\"x\",\"kind\":\"RATIO\","
                + "\"metric\":\"P99\",\"sli\":\"ITL\",\"maxRatio\":1.5}", true)), "assertions")).get(0);
        assertEquals("alone", SloPlanReader.get(ratio, "baselineCell"));
    }

    /** Whatever slo-service's plan can measure, a review can make an acceptance clause of, and nothing more. */
    @Test
    void theItemsMetricsAreThePlansMetrics() {
        assertEquals(new java.util.TreeSet<>(SloPlanReader.metrics()), new java.util.TreeSet<>(java.util.Arrays
                .stream(AcceptanceItem.Metric.values()).map(Enum::name).toList()));
    }

    @Test
    void thePlanCarriesTheWindowAndANameSloServiceTakes() {
        ObjectNode plan = export("{\"name\":\"" + "n".repeat(200) + "\",\"kind\":\"THRESHOLD\",\"metric\":\"FAILURE_RATE\","
                + "\"max\":0.01}", false);
        assertTrue(plan.get("name").asText().length() <= 200, plan.get("name").asText());
        assertTrue(plan.get("name").asText().startsWith("Incident 0123456789abcdef01234567: "));
        Object read = SloPlanReader.read(plan);
        assertEquals(FROM, SloPlanReader.get(read, "from"));
        assertEquals(TO, SloPlanReader.get(read, "to"));
    }

    @Test
    void whatTheItemRefusesSloServiceRefusesToo() {
        // a latency without its SLI, a unitless figure given in milliseconds: both readers name the same field
        String noSli = "{\"name\":\"a\",\"kind\":\"THRESHOLD\",\"metric\":\"P99\",\"maxMs\":200}";
        InvalidInput ours = assertThrows(InvalidInput.class, () -> Reviews.of("{\"kind\":\"ACCEPTANCE_ITEM\",\"cell\":"
                + cell("shared") + ",\"assertion\":" + noSli + "}"));
        assertEquals("prevention[0].assertion.sli", ours.field());
        ObjectNode plan = export("{\"name\":\"a\",\"kind\":\"THRESHOLD\",\"metric\":\"P99\",\"sli\":\"TTFT\",\"maxMs\":200}", false);
        ((ObjectNode) plan.get("assertions").get(0)).remove("sli");
        RuntimeException theirs = assertThrows(RuntimeException.class, () -> SloPlanReader.read(plan));
        assertEquals("assertions[0].sli", ((InvalidInput) theirs).field());
        // the p99's spread is a figure of one SLI in milliseconds: both readers ask for its sli, and take no max
        InvalidInput spread = assertThrows(InvalidInput.class, () -> Reviews.of("{\"kind\":\"ACCEPTANCE_ITEM\","
                + "\"cell\":" + cell("shared") + ",\"assertion\":{\"name\":\"s\",\"kind\":\"THRESHOLD\","
                + "\"metric\":\"P99_SPREAD\",\"maxMs\":200}}"));
        assertEquals("prevention[0].assertion.sli", spread.field());
        InvalidInput spreadMax = assertThrows(InvalidInput.class, () -> Reviews.of("{\"kind\":\"ACCEPTANCE_ITEM\","
                + "\"cell\":" + cell("shared") + ",\"assertion\":{\"name\":\"s\",\"kind\":\"THRESHOLD\","
                + "\"metric\":\"P99_SPREAD\",\"sli\":\"TTFT\",\"max\":200}}"));
        assertEquals("prevention[0].assertion.max", spreadMax.field());
        ObjectNode spreadPlan = export("{\"name\":\"s\",\"kind\":\"THRESHOLD\",\"metric\":\"P99_SPREAD\","
                + "\"sli\":\"TTFT\",\"maxMs\":200}", false);
        ((ObjectNode) spreadPlan.get("assertions").get(0)).remove("sli");
        InvalidInput theirSpread = assertThrows(InvalidInput.class, () -> SloPlanReader.read(spreadPlan));
        assertEquals("assertions[0].sli", theirSpread.field());
    }
}
