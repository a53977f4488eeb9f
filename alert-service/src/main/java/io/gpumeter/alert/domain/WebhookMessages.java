package io.gpumeter.alert.domain;

import io.gpumeter.common.problem.InvalidInput;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Checks an Alertmanager webhook body strictly and turns it into alerts; bad input names its field. */
public final class WebhookMessages {

    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{16}");
    /** Go's zero time: Alertmanager's "no end set". */
    private static final Instant ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

    private WebhookMessages() {
    }

    public static List<ReceivedAlert> parse(WebhookPayload body) {
        if (body == null) {
            throw new InvalidInput("body", "the body must be Alertmanager's webhook JSON (version 4)");
        }
        if (!"4".equals(body.version())) {
            throw new InvalidInput("version", "version must be \"4\" (Alertmanager's webhook format), got "
                    + (body.version() == null ? "none" : "\"" + body.version() + "\""));
        }
        status("status", body.status());
        if (body.alerts() == null) {
            throw new InvalidInput("alerts", "alerts is required (an array, possibly empty)");
        }
        if (body.truncatedAlerts() != null && body.truncatedAlerts() < 0) {
            throw new InvalidInput("truncatedAlerts", "truncatedAlerts must be 0 or more");
        }
        List<ReceivedAlert> alerts = new ArrayList<>();
        for (int i = 0; i < body.alerts().size(); i++) {
            alerts.add(alert("alerts[" + i + "]", body.alerts().get(i)));
        }
        return alerts;
    }

    private static ReceivedAlert alert(String at, WebhookPayload.Alert a) {
        if (a == null) {
            throw new InvalidInput(at, at + " must be an alert object");
        }
        boolean firing = status(at + ".status", a.status());
        Map<String, String> labels = a.labels() == null ? Map.of() : new HashMap<>(a.labels());
        labels.values().removeIf(v -> v == null || v.isEmpty());
        String alertname = labels.get("alertname");
        if (alertname == null || alertname.isBlank()) {
            throw new InvalidInput(at + ".labels.alertname", at + ".labels must carry an alertname");
        }
        Map<String, String> annotations = a.annotations() == null ? Map.of() : new HashMap<>(a.annotations());
        annotations.values().removeIf(v -> v == null);
        Instant startsAt = time(at + ".startsAt", a.startsAt(), true);
        Instant endsAt = time(at + ".endsAt", a.endsAt(), false);
        String fingerprint = a.fingerprint();
        if (fingerprint == null || fingerprint.isEmpty()) {
            fingerprint = Fingerprint.of(labels);
        } else if (!FINGERPRINT.matcher(fingerprint).matches()) {
            throw new InvalidInput(at + ".fingerprint", at + ".fingerprint must be 16 lower-case hex digits, got '"
                    + shorten(fingerprint) + "'");
        }
        return new ReceivedAlert(fingerprint, alertname, firing, labels, annotations, startsAt, endsAt, a.generatorURL());
    }

    private static boolean status(String field, String status) {
        if ("firing".equals(status)) {
            return true;
        }
        if ("resolved".equals(status)) {
            return false;
        }
        throw new InvalidInput(field, field + " must be \"firing\" or \"resolved\", got "
                + (status == null ? "none" : "\"" + shorten(status) + "\""));
    }

    private static Instant time(String field, String text, boolean required) {
        if (text == null || text.isEmpty()) {
            if (required) {
                throw new InvalidInput(field, field + " is required (an RFC 3339 timestamp)");
            }
            return null;
        }
        try {
            Instant t = OffsetDateTime.parse(text).toInstant();
            if (t.equals(ZERO_TIME)) {
                if (required) {
                    throw new InvalidInput(field, field + " must be set, got Go's zero time");
                }
                return null;
            }
            return t;
        } catch (DateTimeParseException e) {
            throw new InvalidInput(field, field + " must be an RFC 3339 timestamp, got '" + shorten(text) + "'");
        }
    }

    private static String shorten(String s) {
        return s.length() > 64 ? s.substring(0, 64) + "…" : s;
    }
}
