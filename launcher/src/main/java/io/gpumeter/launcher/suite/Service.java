package io.gpumeter.launcher.suite;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The processes of the suite: the five services, then the console and the MCP server that read them; each with its Maven module,
 * default API port and default management port.
 */
public enum Service {
    COLLECTOR("collector", 8081),
    LEDGER("ledger", 8082),
    SLO("slo", 8083),
    ALERT("alert", 8084),
    BILLING("billing", 8085),
    /** The web console: owns no data, calls the five with each signed-in user's own token. */
    CONSOLE("console", 8086),
    /** The MCP server: the services' reads as tools for AI assistants, called with each caller's rights. */
    MCP("mcp", 8087);

    private static final List<Service> APIS = List.of(COLLECTOR, LEDGER, SLO, ALERT, BILLING);

    private final String id;
    private final int defaultPort;

    Service(String id, int defaultPort) {
        this.id = id;
        this.defaultPort = defaultPort;
    }

    /** Short name, e.g. {@code ledger}: log file name and rest-client config key. */
    public String id() {
        return id;
    }

    public String module() {
        return this == CONSOLE ? id : id + "-service";
    }

    /** The five services with an API of their own, in port order; the console is not one of them. */
    public static List<Service> apis() {
        return APIS;
    }

    public boolean isApi() {
        return this != CONSOLE && this != MCP;
    }

    public int defaultPort() {
        return defaultPort;
    }

    /** Where {@code /q/health} and {@code /q/metrics} are served: the API port plus 1000 (9081..9087). */
    public int defaultManagementPort() {
        return defaultPort + 1000;
    }

    /**
     * The services this one calls with a service token of its own, which is addressed to them ({@code aud}); the
     * ledger calls none and gets no token, and the console calls the five with its users' tokens only.
     */
    public List<Service> calls() {
        return switch (this) {
            case COLLECTOR -> List.of(LEDGER, SLO);
            // slo-service: a window's cost and the runbook, for acceptance runs
            case SLO -> List.of(LEDGER, BILLING, ALERT);
            case BILLING -> List.of(LEDGER);
            case ALERT -> List.of(LEDGER, SLO, BILLING);
            // the MCP server calls the services with a token minted per call for its caller, never one of its own
            case LEDGER, CONSOLE, MCP -> List.of();
        };
    }

    /** Whether the service keeps a schema in the database; the collector holds nothing and gets no datasource. */
    public boolean usesDatabase() {
        return this != COLLECTOR && this != MCP;
    }

    /** The packaged service: {@code <module>/target/quarkus-app/quarkus-run.jar}. */
    public Path jar(Path repoRoot) {
        return repoRoot.resolve(module()).resolve("target").resolve("quarkus-app").resolve("quarkus-run.jar");
    }

    /** Strict parser: {@code ledger} or {@code ledger-service} (or {@code console}), any case. */
    public static Service parse(String text) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT).replaceFirst("-service$", "");
        for (Service s : values()) {
            if (s.id.equals(key)) {
                return s;
            }
        }
        throw new IllegalArgumentException("service must be one of "
                + Arrays.stream(values()).map(Service::id).collect(Collectors.joining(", ")) + ", got '" + text + "'");
    }
}
