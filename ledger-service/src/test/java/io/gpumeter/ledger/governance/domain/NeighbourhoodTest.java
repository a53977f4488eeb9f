package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NeighbourhoodTest {

    private static final Instant T = Instant.parse("2026-11-02T10:00:00Z");

    @Test
    void eventsAreFoundByUidOrByNameWhereTheyNameNoUidInTheirOrder() {
        EventFact byUid = event("e1", "ns", "p", "uid-p");
        EventFact byName = event("e2", "ns", "p", null);
        EventFact otherUid = event("e3", "ns", "p", "uid-q");
        EventFact otherNamespace = event("e4", "other", "p", null);
        EventFact laterByUid = event("e5", "ns", "x", "uid-p");
        Neighbourhood around = Neighbourhood.of(List.of(byUid, byName, otherUid, otherNamespace, laterByUid));
        assertEquals(List.of(byUid, byName, laterByUid), around.about("uid-p", "ns", "p"));
        assertEquals(List.of(byName, otherUid), around.about("uid-q", "ns", "p"));
        assertEquals(List.of(otherNamespace), around.about("uid-z", "other", "p"));
        assertTrue(around.about("uid-z", "ns", "nobody").isEmpty());
    }

    @Test
    void replacementsAreTheRunStartsOfTheSameOwnersOtherPods() {
        Owner job = new Owner("Job", "train");
        Map<String, List<PodStatusFact>> pods = new LinkedHashMap<>();
        pods.put("a", List.of(pod("a", "ns", job, T)));
        pods.put("b", List.of(pod("b", "ns", job, T.plusSeconds(600))));
        pods.put("c", List.of(pod("c", "ns", new Owner("Job", "other"), T.plusSeconds(60))));
        pods.put("d", List.of(pod("d", "elsewhere", job, T.plusSeconds(120))));
        pods.put("e", List.of(pod("e", "ns", null, T.plusSeconds(180))));
        Neighbourhood around = Neighbourhood.of(List.of(), List.of(new LogSignalFact("ns", "a", "main", T, "oom", "x"),
                new LogSignalFact("ns", "b", "main", T, "oom", "y")), pods);
        assertEquals(List.of(T.plusSeconds(600)), PodIncidents.runStarts(pods.get("b")));
        assertEquals(PodIncidents.runStarts(pods.get("b")), around.replacements("a"));
        assertEquals(PodIncidents.runStarts(pods.get("a")), around.replacements("b"));
        assertTrue(around.replacements("c").isEmpty());
        assertTrue(around.replacements("d").isEmpty());
        assertTrue(around.replacements("e").isEmpty());
        assertEquals(1, around.signals("ns", "a").size());
        assertEquals("y", around.signals("ns", "b").get(0).line());
        assertTrue(around.signals("elsewhere", "a").isEmpty());
    }

    private static EventFact event(String uid, String ns, String name, String involvedUid) {
        return new EventFact(uid, ns, uid, "1", T, "Pod", ns, name, involvedUid, "Scheduled", "Normal", "m", "s", null, T, T, 1);
    }

    private static PodStatusFact pod(String uid, String ns, Owner owner, Instant started) {
        return new PodStatusFact(uid, ns, uid, "1", WatchEventType.MODIFIED, started, started, started, null, "node-1",
                "default-scheduler", "Running", null, null, owner, null, null, Map.of("nvidia.com/gpu", 1L), started,
                List.of(new ContainerStatusFact("main", false, 0,
                        new ContainerState(ContainerState.RUNNING, null, null, null, started, null), null)));
    }
}
