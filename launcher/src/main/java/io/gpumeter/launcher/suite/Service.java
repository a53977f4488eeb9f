package io.gpumeter.launcher.suite;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The five services of the suite, with their Maven module, default API port and default management port. */
public enum Service {
    COLLECTOR("collector", 8081),
    LEDGER("ledger", 8082),
    SLO("slo", 8083),
    ALERT("alert", 8084),
    BILLING("billing", 8085);

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
        return id + "-service";
    }

    public int defaultPort() {
        return defaultPort;
    }

    /** Where {@code /q/health} and {@code /q/metrics} are served: the API port plus 1000 (9081..9085). */
    public int defaultManagementPort() {
        return defaultPort + 1000;
    }

    /**
     * The services this one calls, which its service token is addressed to ({@code aud}); the ledger calls none
     * and gets no token.
     */
    public List<Service> calls() {
        return switch (this) {
            case COLLECTOR -> List.of(LEDGER, SLO);
            case SLO, BILLING -> List.of(LEDGER);
            case ALERT -> List.of(LEDGER, SLO, BILLING);
            case LEDGER -> List.of();
        };
    }

    /** Whether the service keeps a schema in the database; the collector holds nothing and gets no datasource. */
    public boolean usesDatabase() {
        return this != COLLECTOR;
    }

    /** The packaged service: {@code <module>/target/quarkus-app/quarkus-run.jar}. */
    public Path jar(Path repoRoot) {
        return repoRoot.resolve(module()).resolve("target").resolve("quarkus-app").resolve("quarkus-run.jar");
    }

    /** Strict parser: {@code ledger} or {@code ledger-service}, any case. */
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
