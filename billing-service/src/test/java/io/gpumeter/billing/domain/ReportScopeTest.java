package io.gpumeter.billing.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportScopeTest {

    @ParameterizedTest(name = "{0} by {1} asks the ledger for {2}")
    @CsvSource(nullValues = "NULL", value = {
            "NULL, TENANT,    'tenant,model'",
            "NULL, TEAM,      'team,model'",
            "acme, TENANT,    'tenant,model'",
            "acme, TEAM,      'tenant,team,model'",
            "acme, NAMESPACE, 'tenant,namespace,model'",
    })
    void ledgerDimensions(String tenant, GroupBy groupBy, String expected) {
        assertEquals(expected, ReportScope.parse(tenant).ledgerGroupBy(groupBy));
    }

    @Test
    void oneTenantAdmitsOnlyItsOwnLines() {
        ReportScope acme = ReportScope.parse("acme");
        assertTrue(acme.admits("acme"));
        assertFalse(acme.admits("acme2"));
        assertFalse(acme.admits("ACME"));
        assertFalse(acme.admits(null));
        assertSame(ReportScope.ALL, ReportScope.parse(null));
        assertTrue(ReportScope.ALL.admits(null));
        assertTrue(ReportScope.ALL.admits("anyone"));
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource({"''", "' '", "'a\tb'", "'line\nbreak'"})
    void rejectsEmptyAndControlCharacters(String tenant) {
        var e = assertThrows(IllegalArgumentException.class, () -> ReportScope.parse(tenant));
        assertTrue(e.getMessage().startsWith("tenant must be"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReportScope.parse("x".repeat(254)));
    }

    @Test
    void fileNamesCarryASafeTenant() {
        BillingPeriod march = BillingPeriod.of(YearMonth.of(2026, 3), ZoneOffset.UTC);
        assertEquals("gpumeter-team-2026-03-a_b_.._c.csv", new CostReport(march, GroupBy.TEAM,
                ReportScope.parse("a\"b/../c"), List.of()).fileName(ReportFormat.CSV));
        assertEquals("gpumeter-team-2026-03.json",
                new CostReport(march, GroupBy.TEAM, List.of()).fileName(ReportFormat.JSON));
    }
}
