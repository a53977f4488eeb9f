package io.gpumeter.collector.governance;

import io.gpumeter.common.fact.PendingPositionFact;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PendingWorkloadsTest {

    static final Instant READ = Instant.parse("2026-06-01T12:00:00Z");

    static String fixture() throws IOException {
        try (InputStream in = PendingWorkloadsTest.class.getResourceAsStream(
                "/governance/kueue-visibility-pendingworkloads-clusterqueue.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theDocumentedSummaryGivesThreePositionsInOrder() throws IOException {
        PendingWorkloads.Read read = PendingWorkloads.parse("cluster-queue", fixture(), READ);
        assertEquals(Map.of(), read.skipped());
        assertEquals(List.of(
                new PendingPositionFact("cluster-queue", "default", "job-sample-job-jrjfr-8d56e", "user-queue", 0, 0, 0, READ),
                new PendingPositionFact("cluster-queue", "default", "job-sample-job-jg9dw-5f1a3", "user-queue", 0, 1, 1, READ),
                new PendingPositionFact("cluster-queue", "default", "job-sample-job-t9b8m-4e770", "user-queue", 0, 2, 2, READ)),
                read.positions());
    }

    @Test
    void itemsWithoutAKeyOrAPositionAreSkippedAndCounted() {
        String body = """
                {"kind":"PendingWorkloadsSummary","apiVersion":"visibility.kueue.x-k8s.io/v1beta1","metadata":{},"items":[
                  {"metadata":{"name":"a","namespace":"ml"},"priority":5,"localQueueName":"lq","positionInClusterQueue":3,"positionInLocalQueue":1},
                  {"metadata":{"namespace":"ml"},"positionInClusterQueue":4,"positionInLocalQueue":2},
                  {"metadata":{"name":"c","namespace":"ml"},"positionInLocalQueue":2},
                  {"metadata":{"name":"d","namespace":"ml"},"positionInClusterQueue":-1},
                  {"metadata":{"name":"e","namespace":"ml"},"positionInClusterQueue":5}]}""";
        PendingWorkloads.Read read = PendingWorkloads.parse("cq", body, READ);
        assertEquals(List.of(new PendingPositionFact("cq", "ml", "a", "lq", 5, 3, 1, READ),
                new PendingPositionFact("cq", "ml", "e", null, null, 5, null, READ)), read.positions());
        assertEquals(Map.of("pending workload without name or namespace", 1, "pending workload without a position", 2),
                read.skipped());
    }

    @Test
    void anEmptyQueueHasNoPositions() {
        assertEquals(List.of(), PendingWorkloads.parse("cq", "{\"kind\":\"PendingWorkloadsSummary\",\"items\":[]}", READ).positions());
    }

    @Test
    void somethingElseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PendingWorkloads.parse("cq", "{\"kind\":\"Status\",\"code\":503}", READ));
        assertThrows(IllegalArgumentException.class, () -> PendingWorkloads.parse("cq", "<html>", READ));
    }
}
