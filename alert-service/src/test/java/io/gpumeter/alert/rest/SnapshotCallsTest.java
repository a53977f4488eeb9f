package io.gpumeter.alert.rest;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.SloState;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.Source;
import io.gpumeter.alert.service.SnapshotService;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * A snapshot costs the same few calls whatever the size of the fleet: a fleet of N nodes with one occupied card each
 * and N SLOs is read with one call for the occupants, one for the cards' usage (one per 500 cards) and one for the SLO
 * states, never one per node, card or SLO.
 */
@QuarkusTest
@TestProfile(SnapshotCallsTest.NoSchedule.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
class SnapshotCallsTest {

    /** No scheduled evaluation, so that only the snapshot taken here calls out. */
    public static class NoSchedule implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.alert.evaluation.every", "off");
        }
    }

    @Inject
    SnapshotService snapshots;

    @BeforeEach
    void emptyLedger() {
        FakeLedger.reset();
    }

    /** N nodes, node i holding card GPU-i with one pod, each card a few minutes of SM_ACTIVE; N latency SLOs. */
    static void fleet(int n) {
        String[] nodes = new String[n];
        StringBuilder slos = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            nodes[i] = "node-" + i;
        }
        FakeLedger.nodes(nodes);
        for (int i = 0; i < n; i++) {
            FakeLedger.occupants(nodes[i], FakeLedger.occupant(nodes[i], "GPU-" + i, "ml", "pod-" + i, "acme",
                    Duration.ofHours(1)));
            FakeLedger.usage("GPU-" + i, Map.of("SM_ACTIVE", FakeLedger.flat(0.5, 3)));
            slos.append(i == 0 ? "" : ",").append("{\"slo\":{\"name\":\"slo-").append(i)
                    .append("\",\"selector\":{\"service\":\"svc-").append(i).append("\"},\"sli\":\"TTFT\","
                            + "\"objective\":{\"percentile\":99,\"thresholdMs\":300}},\"status\":{\"state\":\"OK\",\"alerts\":[]},"
                            + "\"latency\":{\"minutes\":[]}}");
        }
        FakeLedger.answer("/api/v1/slo-states", slos.append("]").toString());
        FakeLedger.CALLS.clear();
    }

    @ParameterizedTest(name = "{0} nodes, cards and SLOs")
    @ValueSource(ints = {3, 40})
    void aSnapshotMakesTheSameCallsWhateverTheFleetsSize(int n) {
        fleet(n);
        Snapshot s = snapshots.take(Instant.now()).await().indefinitely();

        List<?> cards = (List<?>) assertInstanceOf(Source.Available.class, s.cards()).value();
        assertEquals(n, cards.size());
        assertEquals(3, ((Card) cards.get(0)).series().get("SM_ACTIVE").size(), "each card has its own series");
        List<?> slos = (List<?>) assertInstanceOf(Source.Available.class, s.slos()).value();
        assertEquals(n, slos.size());
        assertEquals("svc-0", ((SloState) slos.get(0)).service());

        assertEquals(1, FakeLedger.calls("GET /api/v1/fleet/occupants"));
        assertEquals(1, FakeLedger.calls("POST /api/v1/usage/series"));
        assertEquals(1, FakeLedger.calls("GET /api/v1/slo-states"));
        assertEquals(0, FakeLedger.calls("GET /api/v1/nodes/*/occupants"));
        assertEquals(0, FakeLedger.calls("GET /api/v1/gpus/*/usage"));
        assertEquals(0, FakeLedger.calls("GET /api/v1/slos"));
        assertEquals(0, FakeLedger.calls("GET /api/v1/slos/*/status"));
        assertEquals(0, FakeLedger.calls("GET /api/v1/latency"));
        // the other sources: violations, recent and open incidents, budgets and cost anomalies, one call each
        List<String> all = new ArrayList<>(FakeLedger.CALLS);
        assertEquals(8, all.size(), all.toString());
    }

    @ParameterizedTest(name = "{0} cards")
    @ValueSource(ints = {500, 1001})
    void theCardsUsageIsReadInSetsOfAtMost500(int n) {
        fleet(n);
        Snapshot s = snapshots.take(Instant.now()).await().indefinitely();

        assertEquals(n, ((List<?>) assertInstanceOf(Source.Available.class, s.cards()).value()).size());
        assertEquals(1, FakeLedger.calls("GET /api/v1/fleet/occupants"));
        assertEquals((n + 499) / 500, FakeLedger.calls("POST /api/v1/usage/series"));
    }
}
