package io.gpumeter.launcher.suite;

import io.gpumeter.common.security.Tokens;
import io.gpumeter.launcher.db.DatabaseConnection;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the suite gives each service it starts: the environment it reads, with the local key pair's tokens and the
 * secrets generated once and kept with the keys.
 */
final class ServiceEnvironment {

    /**
     * How long the services' own tokens live: the longest the services accept, so a local run keeps working for a
     * month; a run restarted later mints new ones.
     */
    static final Duration SERVICE_TOKEN_TTL = Tokens.MAX_LIFETIME;

    static final String CONSOLE_SIGNIN_CODE = "GPUMETER_CONSOLE_SIGNIN_CODE";

    private final SuiteConfig config;
    private LocalKeys keys;

    ServiceEnvironment(SuiteConfig config) {
        this.config = config;
    }

    /** e.g. {@code http://127.0.0.1:8082}: the address the services listen on (loopback for a wildcard). */
    static URI url(SuiteConfig config, Service service) {
        return URI.create("http://" + ListenAddress.urlHost(config.listenAddress()) + ":" + config.ports().get(service));
    }

    /**
     * The variables every service reads: its address and port, the database (for those that keep a schema), where
     * the other services are, the key that verifies tokens and the service's own token; alert-service also the
     * webhook token. Secrets go only here, never on a command line, where any user's {@code ps} would show them.
     */
    Map<String, String> of(Service service, DatabaseConnection database) {
        Map<String, String> env = new HashMap<>();
        // glibc gives each thread that allocates its own 64 MiB arena; a JVM's native allocations need two
        env.put("MALLOC_ARENA_MAX", "2");
        env.put("QUARKUS_HTTP_HOST", config.listenAddress());
        // health and metrics bind where the API does: nothing of a local run listens beyond what --listen says
        env.put("QUARKUS_MANAGEMENT_HOST", config.listenAddress());
        env.put("MP_JWT_VERIFY_PUBLICKEY", keys().publicKeyPem());
        serviceToken(service).ifPresent(t -> env.put("GPUMETER_AUTH_SERVICE_TOKEN", t));
        env.put("QUARKUS_HTTP_PORT", Integer.toString(config.ports().get(service)));
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(config.managementPorts().get(service)));
        if (service.usesDatabase()) {
            env.put("QUARKUS_DATASOURCE_REACTIVE_URL", database.reactiveUrl());
            env.put("QUARKUS_DATASOURCE_JDBC_URL", database.jdbcUrl());
            env.put("QUARKUS_DATASOURCE_USERNAME", database.user());
            env.put("QUARKUS_DATASOURCE_PASSWORD", database.password());
        }
        for (Service target : List.of(Service.LEDGER, Service.SLO, Service.BILLING, Service.ALERT)) {
            env.put("QUARKUS_REST_CLIENT_" + target.name() + "_URL", url(config, target).toString());
        }
        if (service == Service.ALERT) {
            env.put("GPUMETER_ALERT_WEBHOOK_TOKEN", webhookToken());
        }
        env.putAll(config.env().getOrDefault(service, Map.of()));
        return env;
    }

    /**
     * The console's: its address and port, where the five services are, the one-time sign-in code with the admin token
     * it signs in with, the public key it verifies tokens with before signing anyone in (the services' own) and the
     * key that seals its session cookies. No database login and no service token: it owns no data, and calls the
     * services with each user's own token.
     */
    Map<String, String> ofConsole(String signinCode, String adminToken) {
        Map<String, String> env = new HashMap<>();
        env.put("QUARKUS_HTTP_HOST", config.listenAddress());
        env.put("QUARKUS_MANAGEMENT_HOST", config.listenAddress());
        env.put("QUARKUS_HTTP_PORT", Integer.toString(config.ports().get(Service.CONSOLE)));
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(config.managementPorts().get(Service.CONSOLE)));
        for (Service target : Service.apis()) {
            env.put("GPUMETER_CONSOLE_" + target.name() + "_URL", url(config, target).toString());
        }
        env.put(CONSOLE_SIGNIN_CODE, signinCode);
        env.put("GPUMETER_CONSOLE_SIGNIN_TOKEN", adminToken);
        env.put("MP_JWT_VERIFY_PUBLICKEY", keys().publicKeyPem());
        env.put("GPUMETER_CONSOLE_SESSION_KEY", LocalSecrets.in(config.stateDirectory()).get(LocalSecrets.CONSOLE_SESSION_KEY));
        env.putAll(config.env().getOrDefault(Service.CONSOLE, Map.of()));
        return env;
    }

    /**
     * The MCP server's: its address and ports, where the four services it reads are, the public key it verifies its
     * callers' tokens with, and the local private key it signs each call's short-lived token for its caller with
     * (docs/adr/0026). No database login and no service token of its own.
     */
    Map<String, String> ofMcp() {
        Map<String, String> env = new HashMap<>();
        env.put("MALLOC_ARENA_MAX", "2");
        env.put("QUARKUS_HTTP_HOST", config.listenAddress());
        env.put("QUARKUS_MANAGEMENT_HOST", config.listenAddress());
        env.put("QUARKUS_HTTP_PORT", Integer.toString(config.ports().get(Service.MCP)));
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(config.managementPorts().get(Service.MCP)));
        for (Service target : List.of(Service.LEDGER, Service.SLO, Service.BILLING, Service.ALERT)) {
            env.put("QUARKUS_REST_CLIENT_" + target.name() + "_URL", url(config, target).toString());
        }
        env.put("MP_JWT_VERIFY_PUBLICKEY", keys().publicKeyPem());
        env.put("GPUMETER_MCP_SIGNING_KEY", keys().privateKeyPem());
        env.putAll(config.env().getOrDefault(Service.MCP, Map.of()));
        return env;
    }

    /** A token of the local key pair for {@code groups}; the services of the suite accept it. */
    synchronized String token(String subject, List<String> groups, Duration ttl) {
        return keys().token(subject, groups, ttl);
    }

    /** A token for {@code service} to present to the services it calls, addressed to them; empty for the ledger. */
    synchronized Optional<String> serviceToken(Service service) {
        List<String> audience = service.calls().stream().map(Service::id).toList();
        return audience.isEmpty() ? Optional.empty()
                : Optional.of(keys().token(service.id(), List.of("service"), audience, SERVICE_TOKEN_TTL));
    }

    /** The bearer token Alertmanager sends to alert-service's webhook. */
    String webhookToken() {
        return LocalSecrets.in(config.stateDirectory()).get(LocalSecrets.WEBHOOK_TOKEN);
    }

    /** The embedded PostgreSQL's superuser password, never on a command line. */
    String databasePassword() {
        return LocalSecrets.in(config.stateDirectory()).get(LocalSecrets.DATABASE_PASSWORD);
    }

    private synchronized LocalKeys keys() {
        if (keys == null) {
            keys = LocalKeys.in(config.stateDirectory());
        }
        return keys;
    }
}
