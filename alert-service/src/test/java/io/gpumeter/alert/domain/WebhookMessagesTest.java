package io.gpumeter.alert.domain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.InvalidInput;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Alertmanager's v4 body: a real one parses, and each bad input names its field. */
class WebhookMessagesTest {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    static ObjectNode fixture() throws IOException {
        try (InputStream in = WebhookMessagesTest.class.getResourceAsStream("/fixtures/alertmanager-webhook-v4-alerta-test.json")) {
            return (ObjectNode) JSON.readTree(in);
        }
    }

    private static List<ReceivedAlert> parse(ObjectNode body) {
        return WebhookMessages.parse(JSON.convertValue(body, WebhookPayload.class));
    }

    @Test
    void aRealAlertmanagerBodyParses() throws IOException {
        List<ReceivedAlert> alerts = parse(fixture());
        assertEquals(1, alerts.size());
        ReceivedAlert a = alerts.get(0);
        assertEquals("thing_dead", a.alertname());
        assertEquals("e626d0e2b57e2ab9", a.fingerprint());
        assertEquals(true, a.firing());
        assertEquals(Instant.parse("2017-08-03T19:17:37.804Z"), a.startsAt());
        assertNull(a.endsAt(), "Go's zero time means no end");
        assertEquals("No things for over 10 minutes", a.annotations().get("summary"));
    }

    @Test
    void aMissingFingerprintIsComputedAsAlertmanagerDoes() throws IOException {
        ObjectNode body = fixture();
        ((ObjectNode) body.withArray("alerts").get(0)).remove("fingerprint");
        assertEquals("e626d0e2b57e2ab9", parse(body).get(0).fingerprint());
    }

    private record Bad(String name, Consumer<ObjectNode> spoil, String field) {
    }

    @Test
    void badInputNamesItsField() throws IOException {
        List<Bad> cases = List.of(
                new Bad("no version", b -> b.remove("version"), "version"),
                new Bad("version 3", b -> b.put("version", "3"), "version"),
                new Bad("unknown status", b -> b.put("status", "pending"), "status"),
                new Bad("no alerts", b -> b.remove("alerts"), "alerts"),
                new Bad("negative truncatedAlerts", b -> b.put("truncatedAlerts", -1), "truncatedAlerts"),
                new Bad("null alert", b -> ((ArrayNode) b.withArray("alerts")).setNull(0), "alerts[0]"),
                new Bad("alert status", b -> alert(b).put("status", "FIRING"), "alerts[0].status"),
                new Bad("no alertname", b -> ((ObjectNode) alert(b).get("labels")).remove("alertname"), "alerts[0].labels.alertname"),
                new Bad("no startsAt", b -> alert(b).remove("startsAt"), "alerts[0].startsAt"),
                new Bad("startsAt not RFC 3339", b -> alert(b).put("startsAt", "yesterday"), "alerts[0].startsAt"),
                new Bad("startsAt zero", b -> alert(b).put("startsAt", "0001-01-01T00:00:00Z"), "alerts[0].startsAt"),
                new Bad("endsAt garbage", b -> alert(b).put("endsAt", "2026-13-01"), "alerts[0].endsAt"),
                new Bad("fingerprint not hex", b -> alert(b).put("fingerprint", "../../etc"), "alerts[0].fingerprint"));
        for (Bad bad : cases) {
            ObjectNode body = fixture();
            bad.spoil().accept(body);
            InvalidInput e = assertThrows(InvalidInput.class, () -> parse(body), bad.name());
            assertEquals(bad.field(), e.field(), bad.name() + ": " + e.getMessage());
        }
        assertEquals("body", assertThrows(InvalidInput.class, () -> WebhookMessages.parse(null)).field());
    }

    private static ObjectNode alert(ObjectNode body) {
        return (ObjectNode) body.withArray("alerts").get(0);
    }
}
