package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/** Builds reviews for the export tests, as stored: one decision and its incident, no triage kept. */
final class Reviews {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant STARTED = Instant.parse("2026-11-02T10:00:00Z");

    private Reviews() {
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A review of an OOM of ml-team/trainer-0 with these prevention items (JSON objects). */
    static Review of(String... items) {
        ReviewInput decision = ReviewInput.read(json("{\"rootCauseClass\":\"workload\",\"cause\":\"oom\","
                + "\"summary\":\"grew past its limit\",\"prevention\":[" + String.join(",", items) + "]}"));
        IncidentRef incident = new IncidentRef("0123456789abcdef01234567", "c1", "oom", "workload", "pod", "gpu-1",
                "GPU-1", "ml-team", "trainer-0", STARTED, null, null, true, 1, "OOMKilled");
        return new Review(incident.id(), 1, 1, decision.contentHash(), decision, "alice", STARTED.plusSeconds(86400),
                incident, null, null, null, null);
    }

    static List<Prevention> items(Review r) {
        return r.decision().prevention();
    }
}
