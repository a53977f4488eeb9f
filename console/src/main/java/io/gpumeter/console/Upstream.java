package io.gpumeter.console;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.problem.Problem;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Calls the services with the signed-in user's own bearer token, so that their access rules decide what the user
 * sees; the console adds no authority of its own. Every failure becomes a {@link Message} a person can read.
 */
@ApplicationScoped
public class Upstream {

    private static final Logger LOG = Logger.getLogger(Upstream.class);

    private final ConsoleConfig config;
    private final ObjectMapper json;
    private final HttpClient http;

    public Upstream(ConsoleConfig config, ObjectMapper json) {
        this.config = config;
        this.json = json;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3))
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The call as a page links it, before it is made. */
    public ApiCall describe(Backend backend, String pathAndQuery) {
        return describe(backend, "GET", pathAndQuery);
    }

    private ApiCall describe(Backend backend, String method, String pathAndQuery) {
        String base = config.url(backend);
        return new ApiCall(backend, method, pathAndQuery, (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + pathAndQuery, null);
    }

    /** GET {@code pathAndQuery} (already encoded) on {@code backend}, asynchronously; never fails, refuses instead. */
    public CompletableFuture<Answer> get(Backend backend, String pathAndQuery, String token, String accept) {
        ApiCall call = describe(backend, pathAndQuery);
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(URI.create(call.url())).timeout(config.callTimeout())
                    .header("Authorization", "Bearer " + token).header("Accept", accept).GET().build();
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new Answer(call, 0, null, false, Message.error(
                    "The console is misconfigured", backend.title() + "'s address is not a URL: " + config.url(backend),
                    "Set gpumeter.console." + backend.name().toLowerCase(Locale.ROOT) + "-url."), null));
        }
        boolean wantsJson = accept.startsWith("application/json");
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                .thenApply(response -> read(call, response, wantsJson))
                .exceptionally(failure -> unreachable(call, failure));
    }

    public CompletableFuture<Answer> getJson(Backend backend, String pathAndQuery, String token) {
        return get(backend, pathAndQuery, token, "application/json");
    }

    /** POST a JSON body to a read that takes its question in a body (a set of cards too long for a URL). */
    public CompletableFuture<Answer> postJson(Backend backend, String path, String body, String token) {
        ApiCall call = describe(backend, "POST", path);
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(URI.create(call.url())).timeout(config.callTimeout())
                    .header("Authorization", "Bearer " + token).header("Accept", "application/json")
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new Answer(call, 0, null, false, Message.error(
                    "The console is misconfigured", backend.title() + "'s address is not a URL: " + config.url(backend),
                    "Set gpumeter.console." + backend.name().toLowerCase(Locale.ROOT) + "-url."), null));
        }
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                .thenApply(response -> read(call, response, true))
                .exceptionally(failure -> unreachable(call, failure));
    }

    /**
     * A file a service answers (an export: YAML, JSON, a zip), its bytes as they are, for the console to hand on with
     * the service's type and file name; a refusal in readable words otherwise.
     */
    public CompletableFuture<Download> download(Backend backend, String pathAndQuery, String token) {
        ApiCall call = describe(backend, pathAndQuery);
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(URI.create(call.url())).timeout(config.callTimeout())
                    .header("Authorization", "Bearer " + token).header("Accept", "*/*").GET().build();
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new Download(0, null, null, null, Message.error("The console is misconfigured",
                    backend.title() + "'s address is not a URL: " + config.url(backend), null)));
        }
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).thenApply(response -> {
            String type = response.headers().firstValue("Content-Type").orElse("application/octet-stream");
            int status = response.statusCode();
            if (status >= 200 && status < 300) {
                return new Download(status, type, response.headers().firstValue("Content-Disposition").orElse(null), response.body(), null);
            }
            return new Download(status, type, null, null, refusal(call, status, type.toLowerCase(Locale.ROOT),
                    new String(response.body(), StandardCharsets.UTF_8)));
        }).exceptionally(failure -> new Download(0, null, null, null, unreachable(call, failure).refusal()));
    }

    /** A file as a service answered it, or its refusal. */
    public record Download(int status, String type, String disposition, byte[] body, Message refusal) {
    }

    /** @param wantsJson a 2xx answer that is not JSON is then a refusal too: a page would have no figures to read */
    private Answer read(ApiCall call, HttpResponse<String> response, boolean wantsJson) {
        int status = response.statusCode();
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
        String body = response.body();
        if (status >= 200 && status < 300) {
            if (type.startsWith("application/json")) {
                if (readable(body)) {
                    return new Answer(call, status, body, true, null, total(response));
                }
                return new Answer(call, status, body, false, Message.error(call.service() + " answered something the console cannot read",
                        "The answer to " + call.pathAndQuery() + " was not valid JSON.", "Check that the console and the services are the same version."), null);
            }
            if (wantsJson) {
                return new Answer(call, status, body, false, Message.error(call.service() + " answered something the console cannot read",
                        "The answer to " + call.pathAndQuery() + " was " + (type.isBlank() ? "of no stated type" : type.split(";")[0].strip())
                                + ", not JSON.",
                        "Check that the console's address of " + call.service() + " (gpumeter.console."
                                + call.backend().name().toLowerCase(Locale.ROOT) + "-url) points at it, not at a proxy's page."), null);
            }
            return new Answer(call, status, body, false, null, null);
        }
        return new Answer(call, status, null, false, refusal(call, status, type, body), null);
    }

    /** A problem document's own words (read by the model, as the services relay one), and what the user can do. */
    private Message refusal(ApiCall call, int status, String type, String body) {
        Optional<Problem> problem = type.startsWith("application/problem+json") || type.startsWith("application/json")
                ? Problem.parse(body) : Optional.empty();
        String title = problem.map(Problem::title).orElse(null);
        String detail = problem.map(Upstream::namingItsField).orElse(null);
        String hint = switch (status) {
            case 401 -> "Your token was not accepted (expired, or signed by another key): sign out and sign in with a fresh one.";
            case 403 -> "Your token's role may not read this. Ask for a token with the reader role, or use the pages in the menu.";
            case 404 -> "Nothing is known under this name; check the address.";
            case 400 -> "Change the figures in the address or the form and try again.";
            case 503 -> "The service is busy or one of its dependencies is down; try again in a moment.";
            default -> status >= 500 ? "The service failed on this request; its log says why." : null;
        };
        String headline = switch (status) {
            case 401 -> call.service() + " did not accept your token";
            case 403 -> call.service() + " refused: you may not see this";
            default -> call.service() + " answered " + status + (title != null ? ": " + title : "");
        };
        return Message.error(headline, detail, hint);
    }

    private Answer unreachable(ApiCall call, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        LOG.debugf("GET %s failed: %s", call.url(), cause.toString());
        if (cause instanceof HttpTimeoutException) {
            return new Answer(call, 0, null, false, Message.error(call.service() + " did not answer in time",
                    "No answer to " + call.pathAndQuery() + " within " + config.callTimeout().toSeconds() + " s.",
                    "Try a shorter window, or again in a moment."), null);
        }
        String why = cause instanceof ConnectException ? "nothing answers at " + config.url(call.backend())
                : "the connection to " + config.url(call.backend()) + " failed";
        return new Answer(call, 0, null, false, Message.error(call.service() + " is unreachable",
                "The console could not reach it: " + why + ".", "Check that " + call.service() + " is running."), null);
    }

    /** Whether the body is one whole JSON value: read through token by token, nothing kept. */
    private boolean readable(String body) {
        try (JsonParser parser = json.getFactory().createParser(body)) {
            if (parser.nextToken() == null) {
                return false;
            }
            parser.skipChildren();
            return parser.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }

    /** A paged list's full length as the service's X-Total-Count says it, or null. */
    private static Long total(HttpResponse<String> response) {
        try {
            return response.headers().firstValue("X-Total-Count").map(String::strip).map(Long::valueOf).orElse(null);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The detail, with the field it names when the words do not say it. */
    private static String namingItsField(Problem problem) {
        String detail = problem.detail();
        String field = problem.field();
        return detail != null && field != null && !detail.contains(field) ? detail + " (" + field + ")" : detail;
    }
}
