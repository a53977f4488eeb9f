package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.gpumeter.ledger.rest.IdleCauseFixture.assertCauses;
import static io.gpumeter.ledger.rest.IdleCauseFixture.split;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The same hour as {@link IdleCauseResourceTest} with stricter thresholds from configuration: 60 % of CFS periods
 * throttled (train-cpu's 50 % no longer counts; its 50-59 at 0.95 of its limit still does), an I/O stall of 0.25
 * (hn1's 0.2 no longer counts, hn2's 0.3 does), 90 % of the node's network (fetch-net's 10/12 no longer counts) and 3
 * drops a second (hostnet's node drops 2.5).
 * <pre>
 * train-cpu  CPU 50-59 = 600, unexplained 3000
 * loader-io  unchanged: I/O 2700, unexplained 900
 * fetch-net  unexplained 3600; hostnet unexplained 3600
 * </pre>
 */
@QuarkusTest
@TestProfile(IdleCauseThresholdsTest.Strict.class)
@WithTestResource(EmbeddedPostgresResource.class)
class IdleCauseThresholdsTest {

    /** Stricter thresholds, and so a database of its own. */
    public static class Strict implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.ledger.idle.cfs-throttled-share", "0.6",
                    "gpumeter.ledger.idle.io-pressure-share", "0.25",
                    "gpumeter.ledger.idle.network-share", "0.9",
                    "gpumeter.ledger.idle.host-network-drops-per-second", "3");
        }
    }

    @Test
    void theThresholdsAreConfigurationsAndTheAnswerSaysWhichWereUsed() {
        IdleCauseFixture.load();
        JsonPath json = split("pod");
        assertCauses(json, "idlecause/tc/train-cpu", "0.166667", "0", "0", "0.833333", "1");
        assertCauses(json, "idlecause/tc/loader-io", "0", "0.75", "0", "0.25", "1");
        assertCauses(json, "idlecause/td/fetch-net", "0", "0", "0", "1", "1");
        assertCauses(json, "idlecause/td/hostnet", "0", "0", "0", "1", "1");
        assertEquals(0.6, json.getDouble("causeThresholds.cfsThrottledShare"));
        assertEquals(0.25, json.getDouble("causeThresholds.ioPressureShare"));
        assertEquals(0.9, json.getDouble("causeThresholds.networkShare"));
        assertEquals(3.0, json.getDouble("causeThresholds.hostNetworkDropsPerSecond"));
        assertEquals(0.9, json.getDouble("causeThresholds.cpuLimitShare"));
    }
}
