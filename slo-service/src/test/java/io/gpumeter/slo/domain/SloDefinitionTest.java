package io.gpumeter.slo.domain;

import io.gpumeter.common.problem.InvalidInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SloDefinitionTest {

    private static final Duration MAX = Duration.ofDays(35);

    private static BigDecimal dec(String s) {
        return s == null ? null : new BigDecimal(s);
    }

    @Test
    void aLatencyObjectiveIsKeptNormalised() {
        SloDefinition d = SloDefinition.of("chat-ttft", " chat ", "ttft", dec("99.0"), dec("300"), "minute", true,
                dec("0.990"), "P30D", MAX);
        assertEquals("chat", d.service());
        assertEquals(Sli.TTFT, d.sli());
        assertEquals(new Objective(dec("99"), dec("300"), Per.MINUTE), d.objective());
        assertEquals(dec("0.99"), d.target());
        assertEquals(Duration.ofDays(30), d.window());
        assertEquals("P30D", d.windowText());
        assertEquals(0, d.errorBudget().compareTo(dec("0.01")));
    }

    @Test
    void availabilityHasNoObjective() {
        SloDefinition d = SloDefinition.of("chat-up", "chat", "AVAILABILITY", null, null, null, false,
                dec("0.999"), "PT6H", MAX);
        assertNull(d.objective());
        assertEquals("PT6H", d.windowText());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            // case                       | name     | service | sli          | pct | ms     | per    | obj   | target | window | field
            "upper-case name              | Chat     | chat    | TTFT         | 99  | 300    | MINUTE | true  | 0.99   | P30D   | name",
            "name ending in a dash        | chat-    | chat    | TTFT         | 99  | 300    | MINUTE | true  | 0.99   | P30D   | name",
            "no service                   | chat     | -       | TTFT         | 99  | 300    | MINUTE | true  | 0.99   | P30D   | selector.service",
            "unknown sli                  | chat     | chat    | TPOT         | 99  | 300    | MINUTE | true  | 0.99   | P30D   | sli",
            "latency without objective    | chat     | chat    | E2E          | -   | -      | -      | false | 0.99   | P30D   | objective",
            "availability with objective  | chat     | chat    | AVAILABILITY | 99  | 300    | MINUTE | true  | 0.99   | P30D   | objective",
            "percentile zero              | chat     | chat    | ITL          | 0   | 300    | MINUTE | true  | 0.99   | P30D   | objective.percentile",
            "percentile above 100         | chat     | chat    | ITL          | 101 | 300    | MINUTE | true  | 0.99   | P30D   | objective.percentile",
            "threshold zero               | chat     | chat    | ITL          | 99  | 0      | MINUTE | true  | 0.99   | P30D   | objective.thresholdMs",
            "no threshold                 | chat     | chat    | ITL          | 99  | -      | MINUTE | true  | 0.99   | P30D   | objective.thresholdMs",
            "per hour                     | chat     | chat    | ITL          | 99  | 300    | HOUR   | true  | 0.99   | P30D   | objective.per",
            "target as a percentage       | chat     | chat    | ITL          | 99  | 300    | MINUTE | true  | 99     | P30D   | target",
            "target of one                | chat     | chat    | ITL          | 99  | 300    | MINUTE | true  | 1      | P30D   | target",
            "no target                    | chat     | chat    | ITL          | 99  | 300    | MINUTE | true  | -      | P30D   | target",
            "window not ISO-8601          | chat     | chat    | ITL          | 99  | 300    | MINUTE | true  | 0.99   | 30d    | window",
            "window under an hour         | chat     | chat    | ITL          | 99  | 300    | MINUTE | true  | 0.99   | PT59M  | window",
            "window above the maximum     | chat     | chat    | ITL          | 99  | 300    | MINUTE | true  | 0.99   | P36D   | window",
            "window of seconds            | chat     | chat    | ITL          | 99  | 300    | MINUTE | true  | 0.99   | PT61M1S| window",
    })
    void badDefinitionsNameTheirField(String name, String slo, String service, String sli, String pct, String ms,
                                      String per, boolean obj, String target, String window, String field) {
        InvalidInput e = assertThrows(InvalidInput.class, () -> SloDefinition.of(slo, service, sli, dec(pct),
                dec(ms), per, obj, dec(target), window, MAX));
        assertEquals(field, e.field(), e.getMessage());
    }

    private static SloDefinition tenantSlo(String service, String tenant, String namespace) {
        return SloDefinition.of("acme-ttft", new SloSelector.Parts(service, tenant, namespace), "TTFT", dec("99"),
                dec("300"), "MINUTE", true, dec("0.99"), "P30D", MAX);
    }

    @Test
    void aTenantSelectorNeedsNoServiceAndMayNarrowToOneServiceAndNamespace() {
        SloDefinition all = tenantSlo(null, " acme ", null);
        assertEquals(new SloSelector(null, "acme", null), all.selector());
        assertNull(all.service());
        assertEquals("acme", all.tenant());
        SloDefinition narrowed = tenantSlo("chat", "acme", "acme-ml");
        assertEquals(new SloSelector("chat", "acme", "acme-ml"), narrowed.selector());
    }

    @Test
    void aServiceIsKnownByItsNamespaceAndName() {
        SloDefinition pinned = tenantSlo(" chat ", null, " b-ns ");
        assertEquals(new SloSelector("chat", null, "b-ns"), pinned.selector());
        assertEquals("b-ns", pinned.namespace());
        assertFalse(pinned.selector().unpinned());
        SloDefinition legacy = tenantSlo("chat", null, null);
        assertTrue(legacy.selector().unpinned(), "a service selector stored before namespaces counted");
        assertEquals(pinned, legacy.with(legacy.selector().in("b-ns")));
        assertFalse(tenantSlo(null, "acme", null).selector().unpinned(), "a tenant selector spans its namespaces");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            // case                          | service | tenant  | namespace | field
            "neither service nor tenant      | -       | -       | -         | selector.service",
            "blank tenant                    | -       | '  '    | -         | selector.tenant",
            "blank service beside a tenant   | '  '    | acme    | -         | selector.service",
            "namespace alone                 | -       | -       | acme-ml   | selector.service",
            "service's namespace not a label | chat    | -       | Acme_ML   | selector.namespace",
            "namespace not a DNS label       | -       | acme    | Acme_ML   | selector.namespace",
    })
    void badSelectorsNameTheirField(String name, String service, String tenant, String namespace, String field) {
        InvalidInput e = assertThrows(InvalidInput.class, () -> tenantSlo(service, tenant, namespace));
        assertEquals(field, e.field(), e.getMessage());
    }
}
