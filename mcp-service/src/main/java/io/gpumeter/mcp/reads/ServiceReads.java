package io.gpumeter.mcp.reads;

import io.gpumeter.mcp.auth.McpCaller;
import io.gpumeter.mcp.config.McpConfig;
import io.gpumeter.mcp.tools.Backend;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * GETs a service's read with a token minted for the caller ({@link DelegatedTokens}), within the configured
 * timeouts. The services' addresses are the keys every service reads its peers' from
 * ({@code quarkus.rest-client.<name>.url}).
 */
@ApplicationScoped
public class ServiceReads {

    /** The read could not be made: no signing key, or the service did not answer in time. */
    public static class Unavailable extends RuntimeException {
        Unavailable(String detail) {
            super(detail);
        }
    }

    private final DelegatedTokens tokens;
    private final McpConfig config;
    private final Map<Backend, URI> bases = new EnumMap<>(Backend.class);
    private final HttpClient http;

    public ServiceReads(DelegatedTokens tokens, McpConfig config, Config all) {
        this.tokens = tokens;
        this.config = config;
        for (Backend backend : Backend.values()) {
            String url = all.getValue("quarkus.rest-client." + backend.id() + ".url", String.class);
            bases.put(backend, URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url));
        }
        this.http = HttpClient.newBuilder().connectTimeout(config.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The REST URL of {@code pathAndQuery} at {@code backend}. */
    public String url(Backend backend, String pathAndQuery) {
        return bases.get(backend) + pathAndQuery;
    }

    /**
     * Reads {@code pathAndQuery}; {@code limit}, when positive, is added to the query so only that many rows of a
     * list come back, the answer's URL staying the whole list's.
     */
    public ServiceAnswer get(Backend backend, String pathAndQuery, int limit, McpCaller caller, String accept) {
        String token = tokens.mint(caller).orElseThrow(() -> new Unavailable("This MCP server has no key to call the "
                + "services with (gpumeter.mcp.signing-key); ask its operator."));
        String sent = limit <= 0 ? pathAndQuery
                : pathAndQuery + (pathAndQuery.contains("?") ? "&" : "?") + "limit=" + limit;
        HttpRequest request = HttpRequest.newBuilder(URI.create(url(backend, sent))).timeout(config.readTimeout())
                .header("Authorization", "Bearer " + token).header("Accept", accept).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            OptionalLong total = response.headers().firstValue("X-Total-Count")
                    .filter(v -> v.matches("\\d{1,18}")).map(v -> OptionalLong.of(Long.parseLong(v))).orElse(OptionalLong.empty());
            return new ServiceAnswer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.body(), total, url(backend, pathAndQuery));
        } catch (java.net.http.HttpTimeoutException e) {
            throw new Unavailable(backend.id() + "-service did not answer within " + config.readTimeout().toSeconds()
                    + " s; try again later.");
        } catch (IOException e) {
            throw new Unavailable(backend.id() + "-service could not be reached; try again later.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable(backend.id() + "-service's answer was not awaited: the call was cancelled.");
        }
    }
}
