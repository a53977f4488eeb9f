package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A GPU-stack fact is dated when its version was written (its latest managedFields time), so a recorded history
 * replayed later keeps its own instants; without one, or for a deletion, it is dated when it was seen.
 */
class VersionWrittenTest {

    static final Instant SEEN = Instant.parse("2026-12-01T12:00:00Z");

    static Node node(String managedFields) {
        return Serialization.unmarshal("""
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","uid":"u1","resourceVersion":"7"%s},
                 "status":{"allocatable":{"nvidia.com/gpu":"8"}}}""".formatted(managedFields), Node.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "two writers, the latest wins | ,\"managedFields\":[{\"manager\":\"kubelet\",\"operation\":\"Update\",\"time\":\"2026-09-02T10:00:00Z\",\"fieldsV1\":{\"f:status\":{}}},{\"manager\":\"gpu-feature-discovery\",\"operation\":\"Update\",\"time\":\"2026-09-02T11:30:00Z\"}] | MODIFIED | 2026-09-02T11:30:00Z",
            "none written | | MODIFIED | 2026-12-01T12:00:00Z",
            "a deletion is dated when seen | ,\"managedFields\":[{\"manager\":\"kubelet\",\"time\":\"2026-09-02T10:00:00Z\"}] | DELETED | 2026-12-01T12:00:00Z",
            "a time after ours is not believed | ,\"managedFields\":[{\"manager\":\"kubelet\",\"time\":\"2027-01-01T00:00:00Z\"}] | MODIFIED | 2026-12-01T12:00:00Z",
            "a bad time is left out | ,\"managedFields\":[{\"manager\":\"a\",\"time\":\"2026-09-02T09:00:00Z\"},{\"manager\":\"b\"}] | ADDED | 2026-09-02T09:00:00Z",
    })
    void aNodeStatusIsDatedWhenItsVersionWasWritten(String name, String managedFields, WatchEventType type,
                                                    String expected) {
        NodeStatusFact fact = NodeStatusTranslator.translate(node(managedFields == null ? "" : managedFields), type,
                SEEN, NodeStatusSettings.DEFAULT);
        assertEquals(Instant.parse(expected), fact.observedAt());
        assertEquals(Instant.parse(expected), NodeTranslator.translate(node(managedFields == null ? "" : managedFields),
                type, SEEN).observedAt(), "the node's metering fact is dated the same way");
    }
}
