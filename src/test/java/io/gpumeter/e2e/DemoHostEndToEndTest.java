package io.gpumeter.e2e;

import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.demo.DemoSignals;
import io.gpumeter.launcher.demo.HostStories;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.suite.Service;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's hosts and cards, end to end: the card held at its power cap has ten minutes of it in its throttling, the
 * cards' energy is on the GPU-hours, and the host stories reach the books they explain.
 */
@ExtendWith(DemoSuite.Start.class)
@Order(DemoSuite.ORDER)
class DemoHostEndToEndTest {

    static DemoSignals signals;
    static HostStories stories;

    @BeforeAll
    static void readTheDemo() {
        DemoSuite demo = DemoSuite.started();
        signals = demo.signals;
        stories = signals.hostStories();
    }

    static JsonPath get(Service service, String path, Map<String, ?> params) {
        return DemoSuite.started().adminGet(service, path, params);
    }

    @Test
    void theCappedCardSpentItsTenMinutesAtItsSoftwarePowerCap() {
        assertNotNull(stories.cappedCard(), "the demo has a second service and its card");
        JsonPath t = get(Service.LEDGER, "/api/v1/gpus/" + stories.cappedCard() + "/throttling",
                Map.of("from", Rfc3339.format(stories.capFrom().minus(Duration.ofMinutes(20))),
                        "to", Rfc3339.format(stories.capTo().plus(Duration.ofMinutes(20)))));
        List<Map<String, Object>> reasons = t.getList("reasons");
        Map<String, Object> cap = reasons.stream().filter(r -> "SW_POWER_CAP".equals(r.get("reason"))).findFirst()
                .orElseThrow(() -> new AssertionError(t.prettify()));
        assertEquals(10.0, Double.parseDouble(String.valueOf(cap.get("minutes"))), 0.001, t.prettify());
        List<Map<String, Object>> episodes = t.getList("reasons.find { it.reason == 'SW_POWER_CAP' }.episodes");
        assertEquals(1, episodes.size(), t.prettify());
        assertEquals(stories.capFrom(), Instant.parse((String) episodes.get(0).get("from")), t.prettify());
    }

    /** The throttled pod's and the stalled job's idle time is explained by their hosts, each by its own cause. */
    @Test
    void theIdleSplitNamesTheHostsCauses() {
        assertNotNull(stories.idleCpuPod(), "the demo has a MIG inference pod throttled at its CPU limit");
        assertNotNull(stories.ioPod(), "the demo has a job stalled on I/O");
        JsonPath idle = get(Service.LEDGER, "/api/v1/idle", Map.of("from", Rfc3339.format(signals.usageFrom()),
                "to", Rfc3339.format(signals.usageTo()), "groupBy", "pod"));
        double cpu = hours(idle, stories.idleCpuPod(), "CPU_SATURATED");
        double io = hours(idle, stories.ioPod(), "IO_WAIT");
        // the throttled stretch is 20 minutes of a MIG instance, the stall 25 minutes of a whole card
        assertTrue(cpu > 0, "the throttled pod's idle minutes are CPU-saturated: " + row(idle, stories.idleCpuPod()));
        assertTrue(io >= 25 / 60.0 * 0.9, "the stalled job's idle minutes wait on I/O: " + row(idle, stories.ioPod()));
        assertEquals(0, hours(idle, stories.idleCpuPod(), "IO_WAIT"), 1e-6, row(idle, stories.idleCpuPod()).toString());
    }

    /** The slow service's two stretches triage to their own causes: its CPU, then its card's power cap. */
    @Test
    void theSecondServiceWasSlowForItsCpuThenForItsCardsPowerCap() {
        String[] pod = stories.cpuPod().split("/");
        JsonPath cpu = triage(Map.of("namespace", pod[0], "service", stories.cpuService(),
                "at", Rfc3339.format(stories.cpuTo())));
        assertEquals("PERFORMANCE", cpu.getString("symptom"), cpu.prettify());
        assertEquals("cpu-saturated", cpu.getString("cause"), cpu.prettify());
        JsonPath power = triage(Map.of("namespace", pod[0], "service", stories.cpuService(),
                "at", Rfc3339.format(stories.capTo())));
        assertEquals("PERFORMANCE", power.getString("symptom"), power.prettify());
        assertEquals("power-or-thermal", power.getString("cause"), power.prettify());
        assertNotNull(power.getString("fix.action"), power.prettify());
    }

    /** The bill says what the energy cost and emitted, at the demo's configured price and grid mix. */
    @Test
    void theBillPricesTheEnergy() {
        String month = java.time.YearMonth.from(signals.usageTo().atZone(java.time.ZoneOffset.UTC)).toString();
        JsonPath bill = get(Service.BILLING, "/api/v1/reports/monthly", Map.of("month", month, "format", "json",
                "groupBy", "tenant"));
        double kwh = bill.<Object>getList("energy_kwh").stream().filter(v -> v != null)
                .mapToDouble(v -> Double.parseDouble(String.valueOf(v))).sum();
        double cost = bill.<Object>getList("energy_cost").stream().filter(v -> v != null)
                .mapToDouble(v -> Double.parseDouble(String.valueOf(v))).sum();
        double co2 = bill.<Object>getList("co2e_kg").stream().filter(v -> v != null)
                .mapToDouble(v -> Double.parseDouble(String.valueOf(v))).sum();
        assertTrue(kwh > 0, bill.prettify());
        assertEquals(kwh * 0.15, cost, Math.max(0.05, kwh * 0.15 * 0.01), bill.prettify());
        assertEquals(kwh * 0.350, co2, Math.max(0.01, kwh * 0.350 * 0.01), bill.prettify());
    }

    static JsonPath triage(Map<String, String> query) {
        Map<String, String> q = new java.util.HashMap<>(query);
        q.put("cluster", Demo.CLUSTER);
        return get(Service.ALERT, "/api/v1/triage", q);
    }

    static Map<String, Object> row(JsonPath idle, String pod) {
        String[] p = pod.split("/");
        return idle.<Map<String, Object>>getList("rows").stream().filter(r -> {
            Object group = r.get("group");
            return group instanceof Map<?, ?> g && p[0].equals(g.get("namespace")) && p[1].equals(g.get("pod"))
                    || String.valueOf(r.get("key")).endsWith(p[0] + "/" + p[1]);
        }).findFirst().orElseThrow(() -> new AssertionError(pod + " not in " + idle.prettify()));
    }

    @SuppressWarnings("unchecked")
    static double hours(JsonPath idle, String pod, String cause) {
        Map<String, Object> by = (Map<String, Object>) row(idle, pod).get("allocatedNotBusyBy");
        return Double.parseDouble(String.valueOf(by.get(cause)));
    }

    @Test
    void theCardsEnergyIsOnTheGpuHours() {
        Map<String, String> window = Map.of("from", Rfc3339.format(signals.usageFrom()), "to", Rfc3339.format(signals.usageTo()),
                "cluster", Demo.CLUSTER);
        JsonPath byTenant = get(Service.LEDGER, "/api/v1/gpu-hours", Map.of("from", window.get("from"), "to", window.get("to"),
                "groupBy", "tenant"));
        double energy = byTenant.<Object>getList("energyKWh").stream().filter(v -> v != null)
                .mapToDouble(v -> Double.parseDouble(String.valueOf(v))).sum();
        assertTrue(energy > 0, "the tenants' units drew energy: " + byTenant.prettify());
        JsonPath byNode = get(Service.LEDGER, "/api/v1/gpu-hours", Map.of("from", window.get("from"), "to", window.get("to"),
                "groupBy", "node"));
        double idle = byNode.<Object>getList("idleEnergyKWh").stream().filter(v -> v != null)
                .mapToDouble(v -> Double.parseDouble(String.valueOf(v))).sum();
        assertTrue(idle > 0, "cards no unit held drew energy too: " + byNode.prettify());
    }
}
