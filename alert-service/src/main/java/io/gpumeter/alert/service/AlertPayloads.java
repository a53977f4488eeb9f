package io.gpumeter.alert.service;

import io.gpumeter.alert.client.PostableAlert;
import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.repository.StoredEpisode;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** Annotations of gpumeter's own alerts and their form for Alertmanager's POST /api/v2/alerts. */
@ApplicationScoped
public class AlertPayloads {

    private final String externalUrl;
    private final AlertConfig config;

    public AlertPayloads(AlertConfig config) {
        this.config = config;
        String url = config.externalUrl();
        this.externalUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    public String runbookUrl(String alertname) {
        return externalUrl + "/api/v1/runbook#" + alertname;
    }

    public Map<String, String> annotations(Finding f) {
        Map<String, String> annotations = new TreeMap<>();
        annotations.put("summary", f.summary());
        annotations.put("description", f.description());
        annotations.put("runbook_url", runbookUrl(f.alertname()));
        return annotations;
    }

    /**
     * The episode as Alertmanager takes it: a firing alert ends {@code validity} from now unless it is sent again,
     * as Prometheus does, so a lost alert-service never leaves an alert firing forever.
     */
    public JsonObject payload(StoredEpisode e, Instant now) {
        Instant ends = "firing".equals(e.state()) ? now.plus(config.evaluation().validity()) : e.endsAt();
        return new JsonObject()
                .put("labels", new JsonObject(new TreeMap<String, Object>(e.labels())))
                .put("annotations", new JsonObject(new TreeMap<String, Object>(e.annotations())))
                .put("startsAt", e.startsAt().toString())
                .put("endsAt", ends.toString())
                .put("generatorURL", externalUrl + "/api/v1/alerts/" + e.fingerprint());
    }

    public static PostableAlert postable(JsonObject payload) {
        return new PostableAlert(strings(payload.getJsonObject("labels")), strings(payload.getJsonObject("annotations")),
                payload.getString("startsAt"), payload.getString("endsAt"), payload.getString("generatorURL"));
    }

    private static Map<String, String> strings(JsonObject json) {
        Map<String, String> out = new TreeMap<>();
        if (json != null) {
            json.forEach(e -> out.put(e.getKey(), String.valueOf(e.getValue())));
        }
        return out;
    }
}
