package io.gpumeter.common.testing;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FuzzTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "NONE", value = {
            "plain words         | amount: expected a number, got 'x'                       | NONE",
            "a product class     | Cannot build io.gpumeter.billing.service.BudgetRequest   | io.gpumeter",
            "a JDK class         | java.lang.NumberFormatException: For input string        | java.",
            "a library package   | com.fasterxml.jackson.core.JsonParseException            | com.fasterxml",
            "another library     | thrown by org.hibernate.reactive                         | org.",
            "SQL                 | SQL statement failed                                     | SQL",
            "a database error    | ERROR: duplicate key value violates unique constraint    | ERROR:",
            "SQLSTATE            | (SQLSTATE 23505)                                         | SQL",
            "a stack frame       | at foo.Bar.baz(Bar.java:12)                              | at foo.Bar.baz(",
    })
    void aRefusalThatNamesCodeIsCaught(String name, String body, String leak) {
        assertEquals(leak, Fuzz.namesCode(body));
    }
}
