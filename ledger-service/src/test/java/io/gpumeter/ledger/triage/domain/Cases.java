package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.ChangeKind;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.hami.domain.HamiCheck;
import io.gpumeter.ledger.violation.domain.Violation;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builders of triage cases for the domain tests. The pod ml/trainer runs on node n1 from 09:00, holding a HAMi
 * share of 40960 MiB and 50 % cores of GPU-1 (an 81920 MiB card); the instant asked about is 12:00 the same day.
 */
final class Cases {

    static final Instant AT = t("2026-06-01T12:00:00Z");
    static final Instant START = t("2026-06-01T09:00:00Z");
    static final String UID = "uid-trainer";

    private Cases() {
    }

    static Instant t(String iso) {
        return Instant.parse(iso);
    }

    static Holding share(String ns, String pod, String uid, String card, long memoryMib, String since) {
        return new Holding(ns, pod, uid, "n1", card, "VGPU", null, 50, memoryMib, new BigDecimal("0.5"), t(since), null,
                "tenant-" + ns);
    }

    static Holding mine() {
        return share("ml", "trainer", UID, "GPU-1", 40960, "2026-06-01T09:00:00Z");
    }

    static PodStatusFact running(ContainerState state, ContainerState last, int restarts) {
        return version("Running", state, last, restarts, Map.of("nvidia.com/gpu", 1L, "nvidia.com/gpumem", 40960L));
    }

    static PodStatusFact version(String phase, ContainerState state, ContainerState last, int restarts,
                                 Map<String, Long> resources) {
        return new PodStatusFact(UID, "ml", "trainer", "10", WatchEventType.MODIFIED, t("2026-06-01T11:59:00Z"), START,
                START.plusSeconds(5), null, "n1", "hami-scheduler", phase, null, null, new Owner("Job", "train"), null, null,
                resources, START.plusSeconds(30), state == null && last == null ? List.of()
                : List.of(new ContainerStatusFact("main", false, restarts, state, last)));
    }

    static ContainerState up(String since) {
        return new ContainerState(ContainerState.RUNNING, null, null, null, t(since), null);
    }

    static ContainerState ended(String reason, int exit, String finished) {
        return new ContainerState(ContainerState.TERMINATED, reason, null, exit, START, t(finished));
    }

    static ContainerState waiting(String reason) {
        return new ContainerState(ContainerState.WAITING, reason, reason + " message", null, null, null);
    }

    /** The pod's own incident of a cause, on container main, started at {@code at}, open unless recovered. */
    static Incident podIncident(FailureCause cause, String at, String recovered, String evidence) {
        return new Incident("pod/" + UID + "/" + cause.label() + "/main/" + at, "pod", UID, cause.label(), cause.rootCause(),
                "n1", null, null, "ml", "trainer", UID, t(at), recovered == null ? null : t(recovered), null, 1, evidence);
    }

    static Incident cardIncident(String scope, String cause, RootCauseClass root, String card, String at, String evidence) {
        return new Incident(scope + "/" + card + "/" + cause + "/" + at, scope, "n1/0000:3b:00.0", cause, root, "n1",
                "0000:3b:00.0", card, null, null, null, t(at), null, null, 1, evidence);
    }

    static Incident nodeIncident(String scope, FailureCause cause, String at, String evidence) {
        return new Incident(scope + "/n1/" + cause.label() + "/" + at, scope, "n1", cause.label(), cause.rootCause(), "n1",
                null, null, null, null, null, t(at), null, null, 1, evidence);
    }

    static PodCase pod(List<PodStatusFact> versions, List<Incident> incidents, List<Holding> holdings, PodCase.Extras extras) {
        return new PodCase("c", "ml", "trainer", UID, AT, versions, List.of(), List.of(), incidents, holdings, extras);
    }

    static PodCase healthy(List<Incident> incidents, PodCase.Extras extras) {
        return pod(List.of(running(up("2026-06-01T09:00:30Z"), null, 0)), incidents, List.of(mine()), extras);
    }

    static PodCase.Extras extras(List<Holding> neighbours, Map<String, CardMemory> memory, List<EventFact> nodeOoms,
                                 NodeStack stack, List<BookedChange> changes, List<Violation> violations,
                                 List<GrantFinding> grants) {
        return new PodCase.Extras(neighbours, memory, nodeOoms, stack, changes, violations, grants);
    }

    static PodCase.Extras stack(NodeStack stack, List<BookedChange> changes) {
        return extras(null, null, null, stack, changes, null, null);
    }

    static PodCase.Extras overuse(List<Violation> violations, List<GrantFinding> grants) {
        return extras(null, null, null, null, null, violations, grants);
    }

    static Violation violation(Violation.Kind kind, String start, String end) {
        return new Violation(kind, kind == Violation.Kind.BYPASS ? "PROCESS" : "MEMORY", "c", "GPU-1", "ml", "trainer",
                "main", t(start), t(end), 6, kind == Violation.Kind.BYPASS ? null : 1.3);
    }

    static GrantFinding unverified() {
        return new GrantFinding("c", UID, "ml", "trainer", "n1", "GPU-1", 40960, 50, HamiCheck.NOT_BOUND,
                "bind-phase allocating", START, null, "tenant-ml", "t", "p");
    }

    /** The node's stack at an instant: driver, CUDA, the device plugin's state, allocatable GPUs and MIG labels. */
    static NodeStack node(String at, String driver, String plugin, long allocatable, String migConfig, String migState) {
        return new NodeStack("n1", t(at), true, driver, "12.4", 4L, allocatable, false,
                List.of(new NodeStack.ComponentPod("device-plugin", plugin, "gpu-operator", "nvidia-device-plugin-x",
                        "Ready".equals(plugin) ? 0 : 7, "Ready".equals(plugin) ? null : plugin)),
                migConfig, migState, migConfig == null ? null : "AGREE", null);
    }

    static BookedChange change(ChangeKind kind, String subject, String before, String after, String at) {
        return new BookedChange("ch-" + kind + "-" + at, "c", "node/n1", "n1", t(at), kind, subject, before, after,
                "node labels", 1, "a100");
    }

    static EventFact nodeOom(String at) {
        return new EventFact("oom-1", "default", "n1.oom", "1", t(at), "Node", "", "n1", null, "OOMKilling", "Warning",
                "Killed process 4242 (python)", "kernel-monitor", "n1", t(at), t(at), 1);
    }

    /** GPU-1's memory at 10:29 and 10:30: the card's FB_USED and FB_FREE, and each pod's HAMi container series. */
    static CardMemory card(double mineBefore, double mineThen, double neighbourThen, double cardThen) {
        List<MemoryMinute> minutes = new ArrayList<>();
        Instant before = t("2026-06-01T10:21:00Z");
        Instant then = t("2026-06-01T10:30:00Z");
        minutes.add(new MemoryMinute("GPU-1", "DEVICE", "", "FB_USED_MIB", before, mineBefore + 1000));
        minutes.add(new MemoryMinute("GPU-1", "DEVICE", "", "FB_FREE_MIB", before, 81920 - mineBefore - 1000));
        minutes.add(new MemoryMinute("GPU-1", "CONTAINER", "ml/trainer/main", "VGPU_MEMORY_USED_MIB", before, mineBefore));
        minutes.add(new MemoryMinute("GPU-1", "DEVICE", "", "FB_USED_MIB", then, cardThen));
        minutes.add(new MemoryMinute("GPU-1", "DEVICE", "", "FB_FREE_MIB", then, 81920 - cardThen));
        minutes.add(new MemoryMinute("GPU-1", "CONTAINER", "ml/trainer/main", "VGPU_MEMORY_USED_MIB", then, mineThen));
        minutes.add(new MemoryMinute("GPU-1", "CONTAINER", "other/server/main", "VGPU_MEMORY_USED_MIB", then, neighbourThen));
        return new CardMemory("GPU-1", 81920L, minutes);
    }

    static Holding neighbour(long grantMib) {
        return share("other", "server", "uid-server", "GPU-1", grantMib, "2026-06-01T08:00:00Z");
    }
}
