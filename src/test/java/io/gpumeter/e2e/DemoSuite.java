package io.gpumeter.e2e;

import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.demo.DemoSignals;
import io.gpumeter.launcher.kube.SimulatedApiServer;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code up --demo} on a suite of its own, console and MCP server included, with the collector watching the simulated API server:
 * started once for every class that reads the demo (its answers through the APIs, its pages in a browser), stopped
 * when the last test has run.
 */
final class DemoSuite implements ExtensionContext.Store.CloseableResource {

    /** The demo's classes come first (junit-platform.properties orders classes by it); the others have no order. */
    static final int ORDER = 1;

    private static DemoSuite instance;

    final Suite suite;
    final SimulatedApiServer api;
    final Plan plan;
    final DemoSignals signals;
    /** What the demo printed while it fed the suite. */
    final String printed;

    private DemoSuite(Suite suite, SimulatedApiServer api, Plan plan, DemoSignals signals, String printed) {
        this.suite = suite;
        this.api = api;
        this.plan = plan;
        this.signals = signals;
        this.printed = printed;
    }

    /** An admin's read of a service of the demo, which must answer 200 (the message carries the body when not). */
    io.restassured.path.json.JsonPath adminGet(io.gpumeter.launcher.suite.Service service, String path,
                                               java.util.Map<String, ?> params) {
        var response = io.restassured.RestAssured.given().header("Authorization", "Bearer " + suite.adminToken())
                .queryParams(params).get(suite.url(service).resolve(path).toString());
        org.junit.jupiter.api.Assertions.assertEquals(200, response.statusCode(),
                path + " " + params + ": " + response.body().asString());
        return response.jsonPath();
    }

    /** The running demo; only after {@link Start} ran for the class. */
    static synchronized DemoSuite started() {
        if (instance == null) {
            throw new IllegalStateException("the demo suite is not started: annotate the class with @ExtendWith(DemoSuite.Start.class)");
        }
        return instance;
    }

    private static synchronized void start(ExtensionContext context) throws Exception {
        if (instance != null) {
            return;
        }
        Path root = SuiteExtension.repoRoot();
        Path state = root.resolve("src/test/target/demo-e2e-" + ProcessHandle.current().pid());
        FleetSimulator simulator = new FleetSimulator(FleetSimulator.DEFAULT_SEED);
        Plan plan = simulator.plan();
        DemoSignals signals = new DemoSignals(plan);
        SimulatedApiServer api = SimulatedApiServer.start();
        Suite suite = null;
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            Demo demo = new Demo(simulator, print);
            var builder = Suite.builder(root).withConsole().withMcp().freePorts().embeddedDatabase(state.resolve("pgdata")).freshDatabase(true)
                    .stateDirectory(state).logDirectory(state.resolve("logs")).readyTimeout(Duration.ofMinutes(3))
                    .env(Service.ALERT, "GPUMETER_ALERT_ALERTMANAGER_ENABLED", "false");
            demo.configure(builder, api);
            suite = builder.build().start();
            demo.run(suite, api);
            String printed = out.toString(StandardCharsets.UTF_8);
            System.out.println(printed);
            instance = new DemoSuite(suite, api, plan, signals, printed);
        } catch (Exception | Error e) {
            if (suite != null) {
                suite.stop();
            }
            api.close();
            throw e;
        }
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(DemoSuite.class, instance);
    }

    @Override
    public void close() {
        stop();
    }

    /** Stops the demo if it runs: the shared suite calls this before it starts, one suite at a time. */
    static void stop() {
        DemoSuite running;
        synchronized (DemoSuite.class) {
            running = instance;
            instance = null;
        }
        if (running != null) {
            running.suite.stop();
            running.api.close();
        }
    }

    /** Starts the demo before the class's first test, unless a class before it did. */
    static final class Start implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) throws Exception {
            start(context);
        }
    }
}
