package io.gpumeter.e2e;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.RestAssured;
import io.restassured.builder.RequestSpecBuilder;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Starts the embedded database, the five packaged services and the MCP server once for all end-to-end tests, and stops them. */
final class SuiteExtension implements ExtensionContext.Store.CloseableResource {

    private static SuiteExtension instance;
    final Suite suite;

    private SuiteExtension(Suite suite) {
        this.suite = suite;
    }

    static synchronized Suite suite(ExtensionContext context) {
        if (instance == null) {
            DemoSuite.stop();
            Path root = repoRoot();
            Path state = root.resolve("src/test/target/e2e-" + ProcessHandle.current().pid());
            Suite suite = Suite.builder(root)
                    .withMcp()
                    .freePorts()
                    .embeddedDatabase(state.resolve("pgdata"))
                    .freshDatabase(true)
                    .stateDirectory(state)
                    .logDirectory(state.resolve("logs"))
                    .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_WATCH_ENABLED", "false")
                    // The tests read the ledger right after each usage push and check its receipt.
                    .env(Service.COLLECTOR, "GPUMETER_COLLECTOR_USAGE_FLUSH_INTERVAL", "off")
                    .readyTimeout(Duration.ofMinutes(3))
                    .build()
                    .start();
            // Every end-to-end call carries an admin token of the suite's own key pair, as an operator's would.
            RestAssured.requestSpecification = new RequestSpecBuilder()
                    .addHeader("Authorization", "Bearer " + suite.adminToken()).build();
            instance = new SuiteExtension(suite);
            context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(SuiteExtension.class, instance);
        }
        return instance.suite;
    }

    @Override
    public void close() {
        suite.stop();
    }

    static Path repoRoot() {
        String configured = System.getProperty("gpumeter.root");
        Path start = configured != null ? Path.of(configured) : Path.of("").toAbsolutePath();
        for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("ledger-service")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the repository root from " + start);
    }
}
