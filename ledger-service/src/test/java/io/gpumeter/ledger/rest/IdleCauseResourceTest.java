package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.gpumeter.ledger.rest.IdleCauseFixture.assertCauses;
import static io.gpumeter.ledger.rest.IdleCauseFixture.split;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The idle split's allocated-not-busy time by the host's cause, on {@link IdleCauseFixture}'s hour, default thresholds. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class IdleCauseResourceTest {

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (!loaded) {
            IdleCauseFixture.load();
            loaded = true;
        }
    }

    @Test
    void perPodEachMinuteNotBusyGoesToTheFirstCauseThatHolds() {
        String answer = IdleCauseFixture.splitText("pod");
        Contract.record("ledger", "idle", answer); // the console's Idle page draws the split and its causes
        JsonPath json = new JsonPath(answer).using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        assertEquals("pod", json.getString("groupBy"));
        assertEquals(List.of("idlecause/tc/loader-io", "idlecause/tc/serve-busy", "idlecause/tc/train-cpu",
                "idlecause/td/fetch-net", "idlecause/td/hostnet", "idlecause/td/quiet"), json.getList("rows.key"));
        // throttled in 0-39 (and I/O-stalled too in 30-39: CPU comes first), at its limit in 50-59, I/O alone in 40-49
        assertCauses(json, "idlecause/tc/train-cpu", "0.833333", "0.166667", "0", "0", "1");
        assertCauses(json, "idlecause/tc/loader-io", "0", "0.75", "0", "0.25", "1");
        assertCauses(json, "idlecause/td/fetch-net", "0", "0", "0.5", "0.5", "1");
        // its share of the node is the node's own traffic: only the node's drops say network
        assertCauses(json, "idlecause/td/hostnet", "0", "0", "0.333333", "0.666667", "1");
        // no host row after 12:30, its node's none after 12:20: unexplained, and a third of it covered
        assertCauses(json, "idlecause/td/quiet", "0", "0", "0", "1", "0.3333");
        // busy all hour though throttled all hour: no allocated-not-busy time to explain
        assertCauses(json, "idlecause/tc/serve-busy", "0", "0", "0", "0", null);
        assertEquals(0, new BigDecimal("3600").compareTo(new BigDecimal(json.getString(
                "rows.find { it.key == 'idlecause/tc/serve-busy' }.seconds.busy"))));
        assertEquals("tc", json.getString("rows.find { it.key == 'idlecause/tc/train-cpu' }.group.tenant"));
        assertEquals("train-cpu", json.getString("rows.find { it.key == 'idlecause/tc/train-cpu' }.group.pod"));
        assertEquals(0.25, json.getDouble("causeThresholds.cfsThrottledShare"));
        assertEquals(1.0, json.getDouble("causeThresholds.hostNetworkDropsPerSecond"));
    }

    @Test
    void perTenantThePodsCausesAddUp() {
        JsonPath json = split("tenant");
        assertEquals(List.of("tc", "td"), json.getList("rows.key"));
        assertCauses(json, "tc", "0.833333", "0.916667", "0", "0.25", "1");
        assertCauses(json, "td", "0", "0", "0.833333", "2.166667", "0.7778");
    }

    @Test
    void perNodeAndPerCard() {
        JsonPath json = split("node");
        assertEquals(List.of("idlecause/hn1", "idlecause/hn2", "idlecause/hn3", "idlecause/hn4", "idlecause/hn5"),
                json.getList("rows.key"));
        assertCauses(json, "idlecause/hn1", "0.833333", "0.166667", "0", "0", "1");
        assertCauses(json, "idlecause/hn4", "0", "0", "0", "1", "0.3333");
        json = split("gpu");
        assertCauses(json, "GPU-K2", "0", "0.75", "0", "0.25", "1");
        assertCauses(json, "GPU-K6", "0", "0", "0", "0", null);
    }
}
