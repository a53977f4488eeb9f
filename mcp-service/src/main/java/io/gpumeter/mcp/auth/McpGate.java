package io.gpumeter.mcp.auth;

import io.gpumeter.mcp.config.McpConfig;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.List;

/**
 * The door of {@code /mcp}, before the MCP server sees a request, as the MCP specification's authorization part asks:
 * a browser's request from an origin not allowed is a 403 (DNS rebinding), a request without a valid token a 401
 * whose {@code WWW-Authenticate} points at the protected-resource metadata, a token that may read nothing a 403.
 * The verified caller is left on the request for the tools; the token itself goes no further.
 */
@ApplicationScoped
public class McpGate {

    static final String ROOT = "/mcp";
    /** Ahead of the HTTP layer's own security and of every route. */
    private static final int PRIORITY = 1000;

    private final CallerCheck check;
    private final McpConfig config;

    public McpGate(CallerCheck check, McpConfig config) {
        this.check = check;
        this.config = config;
    }

    void register(@Observes Filters filters) {
        filters.register(this::handle, PRIORITY);
    }

    void handle(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (!path.equals(ROOT) && !path.startsWith(ROOT + "/")) {
            ctx.next();
            return;
        }
        String origin = ctx.request().getHeader(HttpHeaders.ORIGIN);
        if (origin != null && !allowedOrigin(ctx, origin)) {
            problem(ctx, 403, "Forbidden", "Requests from this browser origin are refused; an operator may allow it "
                    + "with gpumeter.mcp.allowed-origins.", null);
            return;
        }
        if (origin != null && ctx.request().method() == HttpMethod.OPTIONS) {
            // a browser's CORS preflight never carries the token; it reads nothing (quarkus.http.cors.* answers it)
            ctx.next();
            return;
        }
        CallerCheck.Outcome outcome = check.check(ctx.request().getHeader(HttpHeaders.AUTHORIZATION));
        if (outcome instanceof CallerCheck.Refused refused) {
            StringBuilder challenge = new StringBuilder("Bearer resource_metadata=\"")
                    .append(ResourceMetadata.url(config, ctx)).append('"');
            if (refused.error() != null) {
                challenge.append(", error=\"").append(refused.error()).append('"');
            }
            problem(ctx, refused.status(), refused.status() == 401 ? "Unauthorized" : "Forbidden", refused.detail(),
                    challenge.toString());
            return;
        }
        ctx.put(McpCaller.KEY, ((CallerCheck.Accepted) outcome).caller());
        ctx.next();
    }

    private boolean allowedOrigin(RoutingContext ctx, String origin) {
        List<String> allowed = config.allowedOrigins().orElse(List.of());
        if (allowed.contains(origin)) {
            return true;
        }
        // only the configured public address, never the request's own Host: a rebound name makes both the attacker's
        return config.publicUrl().map(u -> (u.getScheme() + "://" + u.getRawAuthority()).equals(origin)).orElse(false);
    }

    private static void problem(RoutingContext ctx, int status, String title, String detail, String challenge) {
        JsonObject body = new JsonObject().put("type", "about:blank").put("title", title).put("status", status)
                .put("detail", detail);
        if (challenge != null) {
            ctx.response().putHeader("WWW-Authenticate", challenge);
        }
        ctx.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/problem+json")
                .end(body.encode());
    }
}
