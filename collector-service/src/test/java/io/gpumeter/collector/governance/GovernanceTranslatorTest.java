package io.gpumeter.collector.governance;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.collector.kubernetes.Skip;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.fact.WorkloadFact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GovernanceTranslatorTest {

    static final Instant SEEN = Instant.parse("2026-06-01T00:00:00Z");

    static GenericKubernetesResource fixture(String name) throws IOException {
        try (InputStream in = GovernanceTranslatorTest.class.getResourceAsStream("/governance/" + name)) {
            return Serialization.unmarshal(in, GenericKubernetesResource.class);
        }
    }

    static GenericKubernetesResource json(String json) {
        return Serialization.unmarshal(json, GenericKubernetesResource.class);
    }

    @Test
    void admittedWorkloadKeepsCreationQueueAdmissionAndConditions() throws IOException {
        WorkloadFact w = (WorkloadFact) GovernanceTranslator.translate(WatchEventType.ADDED, fixture("kueue-workload-admitted.yaml"), SEEN);
        assertEquals("3f6e2d1c-0b9a-4e8d-a7c6-5b4a39281706", w.uid());
        assertEquals("research", w.namespace());
        assertEquals(Instant.parse("2025-03-14T00:39:00Z"), w.createdAt());
        assertEquals("research-queue", w.queueName());
        assertEquals("gpu-research", w.clusterQueue());
        assertEquals("Job", w.owner().kind());
        assertEquals(2, w.podSets().get(0).count());
        assertEquals(0, new BigDecimal("1").compareTo(w.podSets().get(0).requests().get("nvidia.com/gpu")));
        assertEquals(0, new BigDecimal("8589934592").compareTo(w.podSets().get(0).requests().get("memory")));
        assertEquals("a100-80g", w.assignments().get(0).flavors().get("nvidia.com/gpu"));
        assertEquals(List.of("QuotaReserved", "Admitted"), w.conditions().stream().map(ObjectCondition::type).toList());
        assertEquals(Instant.parse("2025-03-14T03:03:26Z"), w.conditions().get(0).lastTransitionTime());
        assertEquals(SEEN, w.observedAt());
    }

    @Test
    void evictedByAdmissionCheckKeepsTheCheckAndTheEviction() throws IOException {
        WorkloadFact w = (WorkloadFact) GovernanceTranslator.translate(WatchEventType.MODIFIED,
                fixture("kueue-workload-evicted-admission-check.yaml"), SEEN);
        assertEquals(Boolean.FALSE, w.active());
        assertEquals("ml-platform", w.clusterQueue());
        ObjectCondition evicted = w.conditions().get(2);
        assertEquals("Evicted", evicted.type());
        assertEquals("DeactivatedDueToAdmissionCheck", evicted.reason());
        assertTrue(evicted.isTrue());
        assertEquals("capacity-check", w.admissionChecks().get(0).name());
        assertEquals("Pending", w.admissionChecks().get(0).state());
        assertEquals(0, new BigDecimal("64").compareTo(w.assignments().get(1).resourceUsage().get("nvidia.com/gpu")));
    }

    @Test
    void volcanoPodGroupsKeepPhaseQueueAndConditions() throws IOException {
        PodGroupFact pending = (PodGroupFact) GovernanceTranslator.translate(WatchEventType.ADDED,
                fixture("volcano-podgroup-pending-unschedulable-kuberay.yaml"), SEEN);
        assertEquals("Pending", pending.phase());
        assertEquals("kuberay-test-queue", pending.queue());
        assertEquals(3, pending.minMember());
        assertEquals("NotEnoughResources", pending.conditions().get(0).reason());
        assertTrue(pending.conditions().get(0).message().contains("gang unschedulable"));

        PodGroupFact running = (PodGroupFact) GovernanceTranslator.translate(WatchEventType.ADDED,
                fixture("volcano-podgroup-running-docs.yaml"), SEEN);
        assertEquals("Running", running.phase());
        assertEquals(1, running.running());
        assertEquals(List.of("Unschedulable", "Scheduled"), running.conditions().stream().map(ObjectCondition::type).toList());
        assertEquals(Instant.parse("2020-08-11T12:29:02Z"), running.conditions().get(1).lastTransitionTime());
        assertEquals("high-priority", running.priorityClassName());
    }

    @Test
    void clusterQueueQuotaJoinsSpecAndStatusPerFlavorAndResource() {
        QueueObjectFact q = (QueueObjectFact) GovernanceTranslator.translate(WatchEventType.ADDED, json("""
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ClusterQueue","metadata":{"name":"gpu-research","uid":"cq1",
                 "resourceVersion":"7"},"spec":{"cohort":"research","resourceGroups":[{"coveredResources":["nvidia.com/gpu"],
                 "flavors":[{"name":"a100-80g","resources":[{"name":"nvidia.com/gpu","nominalQuota":8,"borrowingLimit":"4"}]}]}]},
                 "status":{"pendingWorkloads":3,"admittedWorkloads":2,
                 "flavorsReservation":[{"name":"a100-80g","resources":[{"name":"nvidia.com/gpu","total":"10","borrowed":"2"}]}],
                 "flavorsUsage":[{"name":"a100-80g","resources":[{"name":"nvidia.com/gpu","total":"9","borrowed":"1"}]}]}}"""), SEEN);
        assertEquals(QueueObjectKind.CLUSTER_QUEUE, q.kind());
        assertEquals("research", q.cohort());
        assertEquals(3, q.pendingWorkloads());
        var line = q.quotas().get(0);
        assertEquals("a100-80g", line.flavor());
        assertEquals(0, BigDecimal.valueOf(8).compareTo(line.nominal()));
        assertEquals(0, BigDecimal.valueOf(4).compareTo(line.borrowingLimit()));
        assertEquals(0, BigDecimal.valueOf(10).compareTo(line.reserved()));
        assertEquals(0, BigDecimal.valueOf(9).compareTo(line.used()));
        assertEquals(0, BigDecimal.valueOf(2).compareTo(line.borrowed()));
    }

    @Test
    void localQueueNamesItsClusterQueueAndFlavorItsNodes() {
        QueueObjectFact lq = (QueueObjectFact) GovernanceTranslator.translate(WatchEventType.ADDED, json("""
                {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"research-queue","namespace":"research",
                 "uid":"lq1","resourceVersion":"8"},"spec":{"clusterQueue":"gpu-research"}}"""), SEEN);
        assertEquals("gpu-research", lq.clusterQueue());
        assertEquals("research", lq.namespace());
        QueueObjectFact rf = (QueueObjectFact) GovernanceTranslator.translate(WatchEventType.ADDED, json("""
                {"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ResourceFlavor","metadata":{"name":"a100-80g","resourceVersion":"9"},
                 "spec":{"nodeLabels":{"nvidia.com/gpu.product":"NVIDIA-A100-SXM4-80GB"}}}"""), SEEN);
        assertEquals(Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"), rf.nodeLabels());
        assertEquals("", rf.namespace());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no uid | {\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"w\",\"namespace\":\"n\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"}} | no metadata.uid",
            "no creation time | {\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"w\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"}} | Workload without metadata.creationTimestamp",
            "garbage creation time | {\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"w\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"yesterday\"}} | bad timestamp in metadata.creationTimestamp",
            "garbage condition time | {\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"w\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"status\":{\"conditions\":[{\"type\":\"Admitted\",\"status\":\"True\",\"lastTransitionTime\":\"13:00\"}]}} | bad timestamp in status.conditions.lastTransitionTime",
            "condition without type | {\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"w\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"status\":{\"conditions\":[{\"status\":\"True\"}]}} | Workload condition without type or status",
            "bad quantity | {\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"ClusterQueue\",\"metadata\":{\"name\":\"q\",\"resourceVersion\":\"1\"},\"spec\":{\"resourceGroups\":[{\"flavors\":[{\"name\":\"f\",\"resources\":[{\"name\":\"cpu\",\"nominalQuota\":\"lots\"}]}]}]}} | bad quantity in spec.resourceGroups.flavors.resources.nominalQuota",
            "pod group without namespace | {\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"g\",\"uid\":\"u\",\"resourceVersion\":\"1\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"}} | no metadata.namespace",
            "unread version | {\"apiVersion\":\"kueue.x-k8s.io/v1alpha1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"w\"}} | unknown apiVersion kueue.x-k8s.io/v1alpha1 for Workload",
    })
    void badObjectsAreSkippedWithAReason(String name, String object, String reason) {
        Skip skip = assertThrows(Skip.class, () -> GovernanceTranslator.translate(WatchEventType.ADDED, json(object), SEEN));
        assertEquals(reason, skip.reason());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "kueue.x-k8s.io/v1beta1 | Workload | generic",
            "kueue.x-k8s.io/v1beta2 | ClusterQueue | generic",
            "scheduling.volcano.sh/v1beta1 | PodGroup | generic",
            "scheduling.volcano.sh/v1beta1 | Queue | generic",
            "batch.volcano.sh/v1alpha1 | Job | generic",
            "v1 | Event | core event",
            "events.k8s.io/v1 | Event | events.k8s.io event",
            "batch/v1 | Job | -",
            "v1 | Pod | -",
            "v1 | ConfigMap | -",
    })
    void governanceKindsAreRecognisedByGroupAndKind(String apiVersion, String kind, String expected) {
        Class<?> model = GovernanceKinds.model(apiVersion, kind);
        if (expected == null) {
            assertNull(model);
        } else if (expected.equals("generic")) {
            assertEquals(GenericKubernetesResource.class, model);
        } else if (expected.equals("core event")) {
            assertEquals(io.fabric8.kubernetes.api.model.Event.class, model);
        } else {
            assertEquals(io.fabric8.kubernetes.api.model.events.v1.Event.class, model);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "kueue.x-k8s.io/v1 | Workload | unknown apiVersion kueue.x-k8s.io/v1 for Workload",
            "scheduling.volcano.sh/v1alpha2 | PodGroup | unknown apiVersion scheduling.volcano.sh/v1alpha2 for PodGroup",
            "v1 | Workload | unknown apiVersion v1 for Workload",
            "events.k8s.io/v1beta1 | Event | unknown apiVersion events.k8s.io/v1beta1 for Event",
            "kueue.x-k8s.io/v1beta1 | Cohort | kind Cohort of kueue.x-k8s.io not read",
    })
    void unknownApiVersionsAreSkipped(String apiVersion, String kind, String reason) {
        Skip skip = assertThrows(Skip.class, () -> GovernanceKinds.model(apiVersion, kind));
        assertEquals(reason, skip.reason());
    }

    @Test
    void eventsKeepWarningsAndDecisionsAndDropRoutine() {
        io.fabric8.kubernetes.api.model.Event failed = Serialization.unmarshal("""
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"train.1","namespace":"ml","uid":"e1","resourceVersion":"31"},
                 "involvedObject":{"kind":"Pod","namespace":"ml","name":"train","uid":"p1"},"reason":"FailedScheduling",
                 "type":"Warning","message":"0/4 nodes are available: 4 Insufficient nvidia.com/gpu.","count":3,
                 "firstTimestamp":"2026-05-01T10:00:00Z","lastTimestamp":"2026-05-01T10:05:00Z",
                 "source":{"component":"default-scheduler"}}""", io.fabric8.kubernetes.api.model.Event.class);
        var fact = (io.gpumeter.common.fact.EventFact) GovernanceTranslator.translate(WatchEventType.ADDED, failed, SEEN);
        assertEquals("p1", fact.involvedUid());
        assertEquals(3, fact.count());
        assertEquals(Instant.parse("2026-05-01T10:00:00Z"), fact.firstAt());
        assertEquals(Instant.parse("2026-05-01T10:05:00Z"), fact.lastAt());
        assertEquals("default-scheduler", fact.reportingComponent());

        io.fabric8.kubernetes.api.model.Event pulled = Serialization.unmarshal("""
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"train.2","namespace":"ml","uid":"e2","resourceVersion":"32"},
                 "involvedObject":{"kind":"Pod","namespace":"ml","name":"train"},"reason":"Pulled","type":"Normal",
                 "firstTimestamp":"2026-05-01T10:06:00Z"}""", io.fabric8.kubernetes.api.model.Event.class);
        assertEquals("routine event", assertThrows(Skip.class,
                () -> GovernanceTranslator.translate(WatchEventType.ADDED, pulled, SEEN)).reason());
        assertEquals("event expired", assertThrows(Skip.class,
                () -> GovernanceTranslator.translate(WatchEventType.DELETED, failed, SEEN)).reason());
        assertFalse(EventTranslator.DECISIONS.contains("Pulled"));
    }

    /** The API server keeps an event in its object's namespace: one found elsewhere is a tenant speaking for another. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "a tenant's event about another namespace's pod | mallory | Pod | victim | false",
            "a tenant's event about a pod without its namespace | mallory | Pod | | true",
            "a tenant's event about a node | mallory | Node | | false",
            "a tenant's event about a cluster queue | mallory | ClusterQueue | | false",
            "node-problem-detector's event about a node | default | Node | | true",
            "an event about a node without a namespace | | Node | | true",
            "an event about a pod of its own namespace | victim | Pod | victim | true",
    })
    void anEventCountsOnlyAboutAnObjectOfItsOwnNamespace(String name, String eventNamespace, String kind,
                                                        String objectNamespace, boolean kept) {
        io.fabric8.kubernetes.api.model.Event event = Serialization.unmarshal(("""
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"x.1",%s"uid":"e9","resourceVersion":"40"},
                 "involvedObject":{"kind":"%s",%s"name":"victim-0","uid":"o9"},"reason":"FailedScheduling",
                 "type":"Warning","message":"forged","firstTimestamp":"2026-05-01T10:00:00Z"}""").formatted(
                eventNamespace == null ? "" : "\"namespace\":\"" + eventNamespace + "\",", kind,
                objectNamespace == null ? "" : "\"namespace\":\"" + objectNamespace + "\","),
                io.fabric8.kubernetes.api.model.Event.class);
        if (kept) {
            var fact = (io.gpumeter.common.fact.EventFact) GovernanceTranslator.translate(WatchEventType.ADDED, event, SEEN);
            assertEquals("o9", fact.involvedUid());
        } else {
            assertEquals("event in another namespace than its object's", assertThrows(Skip.class,
                    () -> GovernanceTranslator.translate(WatchEventType.ADDED, event, SEEN)).reason());
        }
    }
}
