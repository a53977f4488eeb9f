package io.gpumeter.billing.domain;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportParametersTest {

    @ParameterizedTest(name = "groupBy [{0}] -> {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "tenant     | TENANT",
            "team       | TEAM",
            "project    | PROJECT",
            "namespace  | NAMESPACE",
            "Namespace  | NAMESPACE",
            "pod        | NULL",
            "model      | NULL",
            "''         | NULL",
            "NULL       | NULL",
            "tenant,team| NULL",
    })
    void groupBy(String text, String expected) {
        if (expected == null) {
            var e = assertThrows(IllegalArgumentException.class, () -> GroupBy.parse(text));
            assertTrue(e.getMessage().contains("tenant, team, project, namespace"), e.getMessage());
        } else {
            assertEquals(GroupBy.valueOf(expected), GroupBy.parse(text));
        }
    }

    @ParameterizedTest(name = "format [{0}] -> {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "csv   | CSV",
            "json  | JSON",
            "JSON  | JSON",
            "focus | FOCUS",
            "FOCUS | FOCUS",
            "xml   | NULL",
            "xlsx  | NULL",
            "''    | NULL",
            "NULL  | NULL",
    })
    void format(String text, String expected) {
        if (expected == null) {
            var e = assertThrows(IllegalArgumentException.class, () -> ReportFormat.parse(text));
            assertTrue(e.getMessage().startsWith("format must be csv, json or focus"), e.getMessage());
        } else {
            assertEquals(ReportFormat.valueOf(expected), ReportFormat.parse(text));
        }
    }
}
