package io.gpumeter.mcp.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The MCP server's own settings ({@code gpumeter.mcp.*}); the services' addresses are their peers' usual keys. */
@ConfigMapping(prefix = "gpumeter.mcp")
public interface McpConfig {

    /** How long a tool waits for a service to accept the connection. */
    @WithDefault("2s")
    Duration connectTimeout();

    /** How long a tool waits for a service's whole answer. */
    @WithDefault("30s")
    Duration readTimeout();

    /** How many rows of a list an answer carries; the answer names the REST URL of the whole list. */
    @WithDefault("20")
    int rows();

    /** Where assistants reach this server; unset, each request's own scheme and host. */
    Optional<URI> publicUrl();

    /** Browser origins allowed beside none; a request with any other {@code Origin} is refused. */
    Optional<List<String>> allowedOrigins();

    /** Authorization servers named in the protected-resource metadata, when tokens come from one. */
    Optional<List<URI>> authorizationServers();

    /** PKCS#8 PEM of the key that signs each call's token for the caller (docs/adr/0026). */
    Optional<String> signingKey();

    /** How long such a token lives, never past the caller's own token. */
    @WithName("delegated-token-lifetime")
    @WithDefault("PT2M")
    Duration delegatedTokenLifetime();
}
