package io.gpumeter.alert.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.alert.domain.Fingerprint;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** Alertmanager webhook bodies (version 4) for tests, built the way Alertmanager builds them. */
final class Notifications {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Notifications() {
    }

    /** Labels of a gpumeter alert on a node. */
    static Map<String, String> labels(String alertname, String node) {
        Map<String, String> labels = new TreeMap<>();
        labels.put("alertname", alertname);
        labels.put("severity", "warning");
        labels.put("gpumeter", "true");
        labels.put("node", node);
        return labels;
    }

    static String firing(Map<String, String> labels, Instant startsAt) {
        return body("firing", labels, startsAt, null);
    }

    static String resolved(Map<String, String> labels, Instant startsAt, Instant endsAt) {
        return body("resolved", labels, startsAt, endsAt);
    }

    static String body(String status, Map<String, String> labels, Instant startsAt, Instant endsAt) {
        ObjectNode body = JSON.createObjectNode();
        body.put("version", "4").put("groupKey", "{}/{gpumeter=\"true\"}:{alertname=\"" + labels.get("alertname") + "\"}")
                .put("truncatedAlerts", 0).put("status", status).put("receiver", "gpumeter-alert-service")
                .put("externalURL", "http://alertmanager:9093");
        body.putObject("groupLabels").put("alertname", labels.get("alertname"));
        ObjectNode common = body.putObject("commonLabels");
        labels.forEach(common::put);
        body.putObject("commonAnnotations");
        ArrayNode alerts = body.putArray("alerts");
        ObjectNode alert = alerts.addObject();
        alert.put("status", status);
        ObjectNode l = alert.putObject("labels");
        labels.forEach(l::put);
        alert.putObject("annotations").put("summary", labels.get("alertname") + " on " + labels.get("node"));
        alert.put("startsAt", startsAt.toString());
        alert.put("endsAt", endsAt == null ? "0001-01-01T00:00:00Z" : endsAt.toString());
        alert.put("generatorURL", "http://prometheus:9090/graph");
        alert.put("fingerprint", Fingerprint.of(labels));
        return body.toString();
    }
}
