package io.gpumeter.collector.governance;

import io.gpumeter.collector.kubernetes.FactSink;
import io.gpumeter.collector.kubernetes.WatchStreamReader;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.PodStatusFact;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The replay stream routes governance kinds to their own facts and counts what it cannot read. */
class GovernanceStreamTest {

    static final String WORKLOAD = "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\","
            + "\"metadata\":{\"name\":\"w\",\"namespace\":\"ml\",\"uid\":\"w1\",\"resourceVersion\":\"5\",\"creationTimestamp\":\"2026-05-01T00:00:00Z\"},"
            + "\"spec\":{\"queueName\":\"lq\"}}}";
    static final String POD = "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p\","
            + "\"namespace\":\"ml\",\"uid\":\"p1\",\"resourceVersion\":\"7\",\"creationTimestamp\":\"2026-05-01T00:00:00Z\","
            + "\"annotations\":{\"scheduling.k8s.io/group-name\":\"pg\"}},\"spec\":{\"schedulerName\":\"volcano\",\"nodeName\":\"n1\","
            + "\"containers\":[{\"name\":\"a\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\"}}}]},\"status\":{\"phase\":\"Running\","
            + "\"containerStatuses\":[{\"name\":\"a\",\"restartCount\":1,\"state\":{\"running\":{\"startedAt\":\"2026-05-01T00:10:00Z\"}},"
            + "\"lastState\":{\"terminated\":{\"reason\":\"OOMKilled\",\"exitCode\":137,\"finishedAt\":\"2026-05-01T00:09:00Z\"}}}]}}}";
    static final String EVENT = "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"p.1\","
            + "\"namespace\":\"ml\",\"uid\":\"e1\",\"resourceVersion\":\"9\"},\"involvedObject\":{\"kind\":\"Pod\",\"namespace\":\"ml\","
            + "\"name\":\"p\",\"uid\":\"p1\"},\"reason\":\"FailedScheduling\",\"type\":\"Warning\",\"message\":\"0/2 nodes are available\","
            + "\"firstTimestamp\":\"2026-05-01T00:00:01Z\",\"lastTimestamp\":\"2026-05-01T00:00:05Z\",\"count\":2}}";

    static FactSink read(String... lines) throws IOException {
        FactSink sink = new FactSink();
        new WatchStreamReader(100).read(new ByteArrayInputStream(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)),
                Instant.parse("2026-06-01T00:00:00Z"), sink);
        return sink;
    }

    @Test
    void governanceKindsBecomeGovernanceFactsBesideThePodFacts() throws IOException {
        FactSink sink = read(WORKLOAD, POD, EVENT,
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"j\"}}}",
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"kueue.x-k8s.io/v9\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"x\"}}}",
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"w\","
                        + "\"namespace\":\"ml\",\"uid\":\"w2\",\"resourceVersion\":\"6\",\"creationTimestamp\":\"tomorrow\"}}}",
                "{\"type\":\"DELETED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"p.1\",\"uid\":\"e1\","
                        + "\"resourceVersion\":\"10\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\"},\"reason\":\"BackOff\","
                        + "\"type\":\"Warning\",\"firstTimestamp\":\"2026-05-01T00:00:01Z\"}}");
        assertEquals(1, sink.facts(), "one pod fact for the metering ledger");
        GovernanceBatch batch = sink.governanceBatch("lab");
        assertEquals(1, batch.workloads().size());
        assertEquals(1, batch.events().size());
        assertEquals(1, batch.podStatuses().size());
        PodStatusFact pod = batch.podStatuses().get(0);
        assertEquals("pg", pod.groupName());
        assertEquals("volcano", pod.schedulerName());
        assertEquals("OOMKilled", pod.containers().get(0).lastState().reason());
        assertEquals(Instant.parse("2026-05-01T00:10:00Z"), pod.containers().get(0).state().startedAt());
        EventFact event = batch.events().get(0);
        assertEquals(2, event.count());
        assertEquals(Map.of("kind Job not metered yet", 1, "unknown apiVersion kueue.x-k8s.io/v9 for Workload", 1,
                "bad timestamp in metadata.creationTimestamp", 1, "event expired", 1), sink.skippedByReason());
    }
}
