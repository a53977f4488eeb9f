package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The suite's public endpoints, called with its admin token; a call that is not taken is kept as one line in words
 * (method, path, status and the start of the body) rather than thrown, so that the demo goes on and says it at the end.
 */
final class SuiteCalls {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Suite suite;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<String> failures = new ArrayList<>();

    SuiteCalls(Suite suite) {
        this.suite = suite;
    }

    /** What went wrong, one line each; empty when every call was taken. */
    List<String> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    /** Forgets the failures of calls whose line starts with {@code call}, such as a read that was asked again. */
    void forget(String call) {
        synchronized (failures) {
            failures.removeIf(f -> f.startsWith(call));
        }
    }

    /** POSTs the push; true when its answer's status is one of {@code accepted}. */
    boolean post(DemoSignals.Push push, int... accepted) {
        return send(push, "POST", accepted);
    }

    boolean send(DemoSignals.Push push, String method, int... accepted) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(service(push)) + push.path()))
                    .timeout(Duration.ofMinutes(2)).header("Content-Type", push.contentType())
                    .header("Authorization", "Bearer " + suite.adminToken())
                    .method(method, HttpRequest.BodyPublishers.ofString(push.body())).build(),
                    HttpResponse.BodyHandlers.ofString());
            for (int ok : accepted) {
                if (r.statusCode() == ok) {
                    return true;
                }
            }
            fail(method + " " + push.path() + " -> " + r.statusCode() + " " + abbreviate(r.body()));
            return false;
        } catch (IOException e) {
            fail(method + " " + push.path() + ": " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The JSON a read answers with 200, or null (and a failure) otherwise. */
    JsonNode get(Service service, String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(service) + path))
                    .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + suite.adminToken()).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                fail("GET " + path + " -> " + r.statusCode() + " " + abbreviate(r.body()));
                return null;
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            fail("GET " + path + ": " + e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * POSTs {@code json} to a path that creates something; returns the absolute URL of what was created (its
     * Location), or null (and a failure) when it was not.
     */
    String create(Service service, String path, String json) throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base(service) + path))
                            .timeout(Duration.ofMinutes(2)).header("Content-Type", "application/json")
                            .header("Authorization", "Bearer " + suite.adminToken())
                            .POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 201) {
                fail("POST " + path + " -> " + r.statusCode() + " " + abbreviate(r.body()));
                return null;
            }
            String location = r.headers().firstValue("Location").orElse("");
            return location.startsWith("http") ? location
                    : base(service) + location.substring(location.indexOf("/api/"));
        } catch (IOException e) {
            fail("POST " + path + ": " + e.getMessage());
            return null;
        }
    }

    private void fail(String line) {
        synchronized (failures) {
            failures.add(line);
        }
    }

    private static Service service(DemoSignals.Push push) {
        return switch (push.service()) {
            case "collector" -> Service.COLLECTOR;
            case "slo" -> Service.SLO;
            case "billing" -> Service.BILLING;
            case "ledger" -> Service.LEDGER;
            default -> throw new IllegalArgumentException(push.service());
        };
    }

    private String base(Service service) {
        String url = suite.url(service).toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static String abbreviate(String text) {
        String oneLine = text == null ? "" : text.replaceAll("\\s+", " ");
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "…" : oneLine;
    }
}
