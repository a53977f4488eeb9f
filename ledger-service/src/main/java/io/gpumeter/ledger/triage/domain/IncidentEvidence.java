package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.common.triage.XidClass;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.domain.XidCatalog;

import java.time.Instant;
import java.util.Set;

/** An incident as a fact of the evidence chain: where it was read, what it says, and how a person sees it again. */
public final class IncidentEvidence {

    /** The causes a container's log line names (pushed log signals). */
    private static final Set<String> LOG_CAUSES = Set.of(FailureCause.CUDA_OOM.label(), FailureCause.NCCL_HANG.label(),
            FailureCause.GPU_INVISIBLE.label(), FailureCause.CUDA_DRIVER_MISMATCH.label());
    /** The causes an event or the pod's status reason names. */
    private static final Set<String> EVENT_CAUSES = Set.of(FailureCause.POD_SANDBOX.label(),
            FailureCause.TOPOLOGY_AFFINITY.label(), FailureCause.DEVICE_ADMISSION.label());

    private IncidentEvidence() {
    }

    public static Evidence of(Incident i, Instant at) {
        return new Evidence(i.startedAt(), source(i), fact(i, at), command(i));
    }

    static String source(Incident i) {
        return switch (i.scope()) {
            case "gpu" -> "kernel-log";
            case "dcgm", "dcgm-health" -> "dcgm";
            case "node", "mig" -> "node";
            case "node-oom" -> "event";
            default -> LOG_CAUSES.contains(i.cause()) ? "container-log"
                    : EVENT_CAUSES.contains(i.cause()) ? "event" : "pod-status";
        };
    }

    /** "xid-48 (hardware-driver: Double Bit ECC Error) on GPU-1: …; 3 reports; open since …". */
    static String fact(Incident i, Instant at) {
        StringBuilder s = new StringBuilder(i.cause());
        XidClass.code(i.cause()).ifPresent(code -> s.append(" (").append(XidClass.of(code).label()).append(": ")
                .append(XidCatalog.text(code)).append(')'));
        if (i.gpuUuid() != null) {
            s.append(" on ").append(i.gpuUuid());
        } else if (i.gpuPci() != null) {
            s.append(" on the card at ").append(i.gpuPci());
        }
        if (i.node() != null) {
            s.append(" of node ").append(i.node());
        }
        if (i.evidence() != null) {
            s.append(": ").append(i.evidence());
        }
        if (i.occurrences() > 1) {
            s.append("; ").append(i.occurrences()).append(" reports");
        }
        Instant end = Leads.end(i);
        if (end == null || end.isAfter(at)) {
            s.append("; open at ").append(at);
        } else if (i.recoveredAt() != null) {
            s.append("; recovered at ").append(i.recoveredAt());
        } else {
            s.append("; ended unrecovered at ").append(i.endedAt());
        }
        return s.toString();
    }

    /** What shows the incident's fact again. */
    public static String command(Incident i) {
        String node = i.node();
        String cause = i.cause();
        if (XidClass.code(cause).isPresent() || FailureCause.GPU_LOST.label().equals(cause) && !"node".equals(i.scope())) {
            return node == null ? null : Commands.kernelXids(node);
        }
        if (FailureCause.GPU_LOST.label().equals(cause)) {
            return Commands.nodeJsonPath(node, "{.status.allocatable}");
        }
        if (FailureCause.GPU_HEALTH.label().equals(cause)) {
            return node == null || i.gpuUuid() == null ? null : Commands.onNode(node, "nvidia-smi -i "
                    + io.gpumeter.common.shell.ShellWords.quote(i.gpuUuid()) + " -q -d ECC,ROW_REMAPPER");
        }
        if ("mig".equals(i.scope()) || FailureCause.MIG_RECONFIGURATION.label().equals(cause)) {
            return Commands.nodeJsonPath(node, "{.metadata.labels}");
        }
        if ("node-oom".equals(i.scope())) {
            return Commands.kernelOoms(node);
        }
        if (i.namespace() == null || i.pod() == null) {
            return null;
        }
        if (LOG_CAUSES.contains(cause) || FailureCause.CRASH_LOOP.label().equals(cause)
                || FailureCause.CONTAINER_START.label().equals(cause) || FailureCause.OOM.label().equals(cause)) {
            return Commands.previousLogs(i.namespace(), i.pod(), container(i));
        }
        if (EVENT_CAUSES.contains(cause) || FailureCause.IMAGE_PULL.label().equals(cause)) {
            return Commands.podEvents(i.namespace(), i.pod());
        }
        return Commands.describePod(i.namespace(), i.pod());
    }

    /** The container a pod incident's key names, or null ({@code pod/uid/cause/container/start}). */
    public static String container(Incident i) {
        if (!"pod".equals(i.scope())) {
            return null;
        }
        String[] parts = i.key().split("/");
        return parts.length >= 5 && !"-".equals(parts[3]) ? parts[3] : null;
    }
}
