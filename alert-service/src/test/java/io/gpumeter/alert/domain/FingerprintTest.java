package io.gpumeter.alert.domain;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Fingerprints equal Alertmanager's own (values read back from Alertmanager 0.25's /api/v2/alerts). */
class FingerprintTest {

    @Test
    void matchesAlertmanager() {
        assertEquals("725f725716f98d94", Fingerprint.of(Map.of("x", "y")));
        assertEquals("e626d0e2b57e2ab9", Fingerprint.of(Map.of("alertname", "thing_dead")));
        assertEquals("56b891a9f8ea0048", Fingerprint.of(Map.of("alertname", "GpuFallenOffBus", "severity", "critical",
                "gpumeter", "true", "node", "gpu-node-1", "gpu_uuid", "GPU-1234")));
    }

    @Test
    void labelOrderDoesNotMatter() {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("b", "2");
        a.put("a", "1");
        Map<String, String> b = new LinkedHashMap<>();
        b.put("a", "1");
        b.put("b", "2");
        assertEquals(Fingerprint.of(a), Fingerprint.of(b));
    }

    @Test
    void noLabelsIsTheOffsetBasis() {
        assertEquals("cbf29ce484222325", Fingerprint.of(Map.of()));
    }
}
