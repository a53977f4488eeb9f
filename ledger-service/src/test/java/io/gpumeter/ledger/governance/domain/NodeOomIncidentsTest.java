package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.ledger.governance.domain.NodeOomIncidents.OomTermination;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;

import static io.gpumeter.ledger.governance.domain.Facts.t;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class NodeOomIncidentsTest {

    static final Duration TOLERANCE = Duration.ofSeconds(60);

    static EventFact oom(String uid, String at, String message) {
        return new EventFact(uid, "default", "gpu-1." + uid, "1", t(at), "Node", "", "gpu-1", null, "OOMKilling", "Warning",
                message, "kernel-monitor", "gpu-1", t(at), t(at), 1);
    }

    static OomTermination killed(String pod, String at) {
        return new OomTermination("uid-" + pod, "ml", pod, "main", t(at));
    }

    @Test
    void anEventIsTheOomKilledContainerClosestInTimeAndUnmatchedOnesStayOnTheNode() {
        List<EventFact> events = List.of(
                oom("e1", "2026-06-01T10:00:05Z", "Memory cgroup out of memory: Killed process 1234 (python) total-vm:10kB, anon-rss:5kB, "
                        + "file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:4kB oom_score_adj:-997"),
                oom("e2", "2026-06-01T12:00:00Z", "Killed process 77 (java)"));
        // a at 10:00:00 (5 s off) and b at 10:00:30 (25 s off): e1 is a's. Nothing near 12:00: e2 is the node's own.
        List<NodeOomIncidents.Linked> links = NodeOomIncidents.link(events,
                List.of(killed("b", "2026-06-01T10:00:30Z"), killed("a", "2026-06-01T10:00:00Z")), TOLERANCE);
        assertEquals("a", links.get(0).termination().orElseThrow().pod());
        assertEquals(true, links.get(1).termination().isEmpty());

        List<Incident> incidents = NodeOomIncidents.derive("gpu-1", events,
                List.of(killed("b", "2026-06-01T10:00:30Z"), killed("a", "2026-06-01T10:00:00Z"), killed("c", "2026-06-01T12:01:01Z")),
                TOLERANCE);
        assertEquals(1, incidents.size(), "c finished 61 s after e2, past the tolerance");
        Incident node = incidents.get(0);
        assertEquals("oom", node.cause());
        assertEquals(RootCauseClass.WORKLOAD, node.rootCause());
        assertEquals("node-oom", node.scope());
        assertEquals(t("2026-06-01T12:00:00Z"), node.startedAt());
        assertNull(node.recoveredAt());
        assertEquals(t("2026-06-01T12:00:00Z"), node.endedAt());
        assertEquals("OOMKilling on node gpu-1, killed process 77 (java) (no OOMKilled container on the node within 60 s)", node.evidence());
    }

    @Test
    void terminationsAreReadFromEveryRunOfTheNodesPods() {
        var pod = Facts.pod("p1", "trainer-0", "10", WatchEventType.MODIFIED, "Running", null, null, null,
                Facts.running("2026-05-01T00:02:00Z"), Facts.terminated("OOMKilled", 137, "2026-05-01T00:00:20Z", "2026-05-01T00:01:00Z"), 1);
        var again = Facts.pod("p1", "trainer-0", "11", WatchEventType.MODIFIED, "Running", null, null, null,
                Facts.terminated("OOMKilled", 137, "2026-05-01T00:02:00Z", "2026-05-01T00:03:00Z"),
                Facts.terminated("OOMKilled", 137, "2026-05-01T00:00:20Z", "2026-05-01T00:01:00Z"), 2);
        assertEquals(List.of(t("2026-05-01T00:01:00Z"), t("2026-05-01T00:03:00Z")),
                NodeOomIncidents.terminations(List.of(pod, again), "gpu-1").stream().map(OomTermination::finishedAt).sorted().toList());
        assertEquals(List.of(), NodeOomIncidents.terminations(List.of(pod), "gpu-2"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "Memory cgroup out of memory: Killed process 1234 (python) total-vm:1kB, anon-rss:1kB | killed process 1234 (python)",
            "Out of memory: Killed process 42 (pt_main_thread) total-vm:9kB                      | killed process 42 (pt_main_thread)",
            "Killed process 1234 (python)                                                         | killed process 1234 (python)",
            "System OOM encountered, victim process: python3, pid: 999                           | killed process 999 (python3)",
            "something else                                                                       | ''",
    })
    void theVictimIsReadFromEitherWording(String message, String victim) {
        assertEquals(victim, NodeOomIncidents.victim(message).orElse(""));
    }
}
