package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Alertmanager's part in the demo, which runs none: alert-service acts on an alert only when Alertmanager sends it
 * back through the webhook (alert, route, receiver, runbook action). Every quarter minute this reads the alerts
 * alert-service's own rules fire and sends each new one to its webhook once, in Alertmanager's webhook body and with
 * its webhook token, so that the runbook's dry-run actions are taken and audited as with a real Alertmanager.
 */
final class DemoAlertmanager {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration EVERY = Duration.ofSeconds(15);

    private final Suite suite;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Set<String> sent = new HashSet<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "demo-alertmanager");
        t.setDaemon(true);
        return t;
    });

    DemoAlertmanager(Suite suite) {
        this.suite = suite;
    }

    /** Starts forwarding; it stops with the launcher. */
    void start() {
        timer.scheduleWithFixedDelay(this::forward, 0, EVERY.toSeconds(), TimeUnit.SECONDS);
    }

    private void forward() {
        try {
            HttpResponse<String> firing = http.send(HttpRequest.newBuilder(URI.create(base(Service.ALERT)
                            + "/api/v1/alerts?state=firing")).timeout(Duration.ofSeconds(20))
                    .header("Authorization", "Bearer " + suite.adminToken()).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (firing.statusCode() != 200) {
                return;
            }
            ArrayNode alerts = JSON.createArrayNode();
            for (JsonNode a : JSON.readTree(firing.body())) {
                String fingerprint = a.path("fingerprint").asText();
                if (sent.contains(fingerprint)) {
                    continue;
                }
                ObjectNode alert = alerts.addObject();
                alert.put("status", "firing");
                alert.set("labels", a.path("labels"));
                alert.set("annotations", a.path("annotations"));
                alert.put("startsAt", a.path("startsAt").asText());
                alert.put("endsAt", "0001-01-01T00:00:00Z");
                alert.put("generatorURL", base(Service.ALERT) + "/api/v1/alerts/" + fingerprint);
                alert.put("fingerprint", fingerprint);
            }
            if (alerts.isEmpty()) {
                return;
            }
            ObjectNode body = JSON.createObjectNode();
            body.put("version", "4");
            body.put("groupKey", "{}:{demo=\"alerts\"}");
            body.put("truncatedAlerts", 0);
            body.put("status", "firing");
            body.put("receiver", "gpumeter-alert-service");
            body.putObject("groupLabels");
            body.putObject("commonLabels");
            body.putObject("commonAnnotations");
            body.put("externalURL", "http://alertmanager.demo.invalid");
            body.set("alerts", alerts);
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base(Service.ALERT)
                            + "/api/v1/alertmanager/webhook")).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + suite.webhookToken()).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200) {
                alerts.forEach(a -> sent.add(a.path("fingerprint").asText()));
            }
        } catch (IOException | RuntimeException e) {
            // the next round tries again; the demo's figures do not depend on it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String base(Service service) {
        return suite.url(service).toString().replaceAll("/$", "");
    }
}
