package io.gpumeter.common.security;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one reading of a token's groups, which the services' access filter and the console's pages share. */
class CallerTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            // groups (space-separated)            | reads every tenant | confined to | refused as ambiguous
            "admin                                 | true  | -     | false",
            "tenant:acme                           | false | acme  | false",
            "admin tenant:acme                     | true  | -     | false",
            "reader tenant:acme tenant:globex      | true  | -     | false",
            "tenant:acme tenant:globex             | false | -     | true",
            "ingest tenant:acme                    | false | acme  | false",
            "ingest                                | false | -     | false",
            "tenant:                               | false | -     | false",
    })
    void aTokensGroupsGiveItsRolesAndTenant(String groups, boolean fleet, String tenant, boolean ambiguous) {
        Caller caller = Caller.of(Arrays.asList(groups.split(" ")));
        assertEquals(fleet, caller.readsEveryTenant(), groups);
        assertEquals(Optional.ofNullable(tenant), caller.confinedTo(), groups);
        assertEquals(ambiguous, caller.ambiguous(), groups);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "admin tenant:acme   | POST | /api/v1/failures/incidents/7/review | true",
            "operator            | POST | /api/v1/failures/incidents/7/review | true",
            "reader              | POST | /api/v1/failures/incidents/7/review | false",
            "tenant:acme         | POST | /api/v1/failures/incidents/7/review | false",
            "tenant:acme         | GET  | /api/v1/gpu-hours                   | true",
            "tenant:acme         | GET  | /api/v1/capacity                    | false",
    })
    void whatACallerMayCallIsTheAccessTables(String groups, String method, String path, boolean allowed) {
        assertEquals(allowed, Caller.of(Arrays.asList(groups.split(" "))).mayCall(method, path));
    }
}
