package io.gpumeter.e2e;

import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.SimNode;
import io.gpumeter.launcher.suite.Service;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's capacity plan, end to end: its nodes are in the inventory from their creation although the collector
 * first saw them when the demo started, so the plan's supply is the simulated fleet's cards; every model states its
 * three margins and every demand shape the rule it was planned by.
 */
@ExtendWith(DemoSuite.Start.class)
@Order(DemoSuite.ORDER)
class DemoCapacityEndToEndTest {

    static Plan plan;

    @BeforeAll
    static void readTheDemo() {
        DemoSuite demo = DemoSuite.started();
        plan = demo.plan;
    }

    static JsonPath get(Service service, String path, Map<String, ?> params) {
        return DemoSuite.started().adminGet(service, path, params);
    }

    @Test
    void thePlansSupplyIsTheSimulatedFleetsCards() {
        JsonPath p = get(Service.SLO, "/api/v1/capacity/plan", Map.of("horizon", "30d", "history", "7d"));
        int simulated = plan.nodes().stream().mapToInt(n -> n.gpus().size()).sum();
        List<Integer> cards = p.getList("models.supply.cards", Integer.class);
        assertEquals(simulated, cards.stream().mapToInt(Integer::intValue).sum(), p.getList("models.supply").toString()
                + " " + p.getList("models.model") + " " + p.getList("models.inventorySince"));
        Set<String> models = new TreeSet<>();
        for (SimNode n : plan.nodes()) {
            if (!n.gpus().isEmpty()) {
                models.add(n.model());
            }
        }
        assertEquals(models.size(), p.getList("models.findAll { it.supply.cards > 0 }").size(),
                "one entry per simulated model, whatever spelling reported it: " + p.prettify());
        for (Map<String, Object> m : p.<Map<String, Object>>getList("models")) {
            assertTrue(((Number) ((Map<?, ?>) m.get("supply")).get("usable")).intValue() > 0, String.valueOf(m));
        }
    }

    @Test
    void everyModelStatesItsThreeMarginsAndEveryShapeItsRule() {
        JsonPath p = get(Service.SLO, "/api/v1/capacity/plan", Map.of("horizon", "30d", "history", "7d"));
        for (String margin : List.of("jitter", "failures", "peaks")) {
            List<String> sources = p.getList("models.margins." + margin + ".source", String.class);
            assertFalse(sources.isEmpty(), p.prettify());
            assertTrue(sources.stream().allMatch(s -> s.equals("measured") || s.equals("floor")), p.prettify());
        }
        List<String> rules = p.getList("models.shapes.flatten().rule", String.class);
        assertFalse(rules.isEmpty(), "the demo's pods make demand shapes: " + p.prettify());
        assertTrue(rules.stream().allMatch(r -> r.equals("acceptance") || r.equals("allocated-hours")), p.prettify());
        List<String> classes = p.getList("models.shapes.flatten().workloadClass", String.class);
        assertTrue(classes.contains("inference"), "the demo's inference services are a class of their own: " + classes);
    }
}
