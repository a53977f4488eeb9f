package io.gpumeter.mcp.auth;

import io.gpumeter.mcp.config.McpConfig;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.net.URI;

/**
 * The OAuth 2.0 Protected Resource Metadata (RFC 9728) that the MCP specification has a client discover from the
 * 401: which resource this is, that tokens go in the Authorization header, and the authorization servers, when a
 * deployment has one (the suite itself signs tokens with {@code ./gpumeter token}).
 */
@ApplicationScoped
public class ResourceMetadata {

    static final String PATH = "/.well-known/oauth-protected-resource";

    private final McpConfig config;

    public ResourceMetadata(McpConfig config) {
        this.config = config;
    }

    void routes(@Observes Router router) {
        // the root form, and the path-suffixed form RFC 9728 gives a resource at /mcp
        router.get(PATH).handler(this::serve);
        router.get(PATH + McpGate.ROOT).handler(this::serve);
    }

    void serve(RoutingContext ctx) {
        JsonArray servers = new JsonArray();
        config.authorizationServers().ifPresent(list -> list.forEach(s -> servers.add(s.toString())));
        JsonObject body = new JsonObject()
                .put("resource", base(config, ctx) + McpGate.ROOT)
                .put("authorization_servers", servers)
                .put("bearer_methods_supported", new JsonArray().add("header"))
                .put("resource_name", "gpumeter");
        ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(body.encode());
    }

    /** The metadata's address, for the {@code WWW-Authenticate} of a refusal. */
    static String url(McpConfig config, RoutingContext ctx) {
        return base(config, ctx) + PATH + McpGate.ROOT;
    }

    private static String base(McpConfig config, RoutingContext ctx) {
        URI uri = config.publicUrl().orElseGet(() -> URI.create(ctx.request().absoluteURI()));
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }
}
