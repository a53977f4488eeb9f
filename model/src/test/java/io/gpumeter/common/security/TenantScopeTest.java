package io.gpumeter.common.security;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Every spelling a tenant token could use to name another tenant, against the parsed-request decision: each is
 * refused, or let through with the query rewritten to name the caller's tenant exactly once.
 */
class TenantScopeTest {

    private static final AccessRule HOURS = AccessRules.match("GET", "/api/v1/gpu-hours");
    private static final AccessRule BUDGET = AccessRules.match("GET", "/api/v1/budgets/acme");

    @ParameterizedTest(name = "?{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "tenant=initech                         | refuse",
            "Tenant=initech                         | refuse",
            "TENANT=initech                         | refuse",
            "tEnAnT=initech                         | refuse",
            "%74enant=initech                       | refuse",
            "%54ENANT=initech                       | refuse",
            "tenant%20=initech                      | refuse",
            "+tenant=initech                        | refuse",
            "tenant=acme&tenant=initech             | refuse",
            "tenant=initech&tenant=acme             | refuse",
            "tenant=acme&Tenant=initech             | refuse",
            "tenant=                                | refuse",
            "tenant                                 | refuse",
            "tenant=%61cme%00                       | refuse",
            "tenant=acme%20                         | refuse",
            "tenant=ACME                            | refuse",
            "tenant=%69nitech                       | refuse",
            "tenant=acme,initech                    | refuse",
            "from=x&tenant=acme                     | from=x&tenant=acme",
            "tenant=%61cme                          | tenant=acme",
            "tenant=acme&TENANT=acme                | tenant=acme",
            "(none)                                 | tenant=acme",
            "groupBy=tenant&from=a+b                | groupBy=tenant&from=a%20b&tenant=acme",
            "namespace=initech-ml&pod=x             | namespace=initech-ml&pod=x&tenant=acme",
    })
    void aTenantParameterInAnySpelling(String query, String expected) {
        TenantScope.Decision decision = TenantScope.decide(HOURS, RequestTarget.parse("/api/v1/gpu-hours", query.equals("(none)") ? "" : query), "acme");
        if (expected.equals("refuse")) {
            TenantScope.Refuse refuse = assertInstanceOf(TenantScope.Refuse.class, decision);
            assertEquals("tenant", refuse.field());
        } else {
            assertEquals(expected, assertInstanceOf(TenantScope.Allow.class, decision).query());
        }
    }

    @ParameterizedTest(name = "{0}?{1} -> {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "/api/v1/budgets/acme               | (none)                | allow",
            "/api/v1/budgets/%61cme             | (none)                | allow",
            "/api/v1/budgets/initech            | (none)                | refuse",
            "/api/v1/budgets/Acme               | (none)                | refuse",
            "/api/v1/budgets/acme%2F..%2Finitech | (none)               | refuse",
            "/api/v1/budgets/acme               | tenant=initech    | refuse",
            "/api/v1/budgets/acme               | TENANT=initech    | refuse",
            "/api/v1/budgets/acme;tenant=x      | (none)                | refuse",
            "/api/v1/budgets/acme/              | (none)                | refuse",
    })
    void aTenantInThePath(String path, String query, String expected) {
        TenantScope.Decision decision = TenantScope.decide(BUDGET, RequestTarget.parse(path, query.equals("(none)") ? "" : query), "acme");
        if (expected.equals("refuse")) {
            assertInstanceOf(TenantScope.Refuse.class, decision);
        } else {
            assertInstanceOf(TenantScope.Allow.class, decision);
        }
    }
}
