package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.triage.FailureCause;

import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.XidFact;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Xid incidents of one card as its dcgm-exporter gauge tells them. The gauge holds the last Xid code until the
 * exporter or the driver is restarted, so only a change to a new non-zero value is a new Xid; repeated scrapes of
 * one value are the same Xid, and a 0 in between separates two reports of one code. The first reading ever seen
 * counts when it is non-zero (the ledger cannot know how long it has held).
 * <p>
 * Severity and recovery follow {@link GpuIncidents}: an application Xid recovers at once; any other Xid stays open
 * until the gauge reads 0 again (the card or its exporter was reset) or the driver announces the card again,
 * whichever comes first. A change the kernel log already reported for the same card and code, within the
 * tolerance, is that report and is not counted again.
 */
public final class DcgmXidIncidents {

    private DcgmXidIncidents() {
    }

    public static List<Incident> derive(String uuid, List<XidReading> readings, List<XidFact> kernelXids,
                                        List<GpuAddressFact> announcements, Duration tolerance) {
        String pci = announcements.stream().max(Comparator.comparing(GpuAddressFact::at)).map(GpuAddressFact::pciBusId).orElse(null);
        List<Instant> backAt = announcements.stream().map(GpuAddressFact::at).sorted().toList();
        Map<String, Incident> incidents = new LinkedHashMap<>();
        Map<String, Incident> open = new HashMap<>();
        Integer previous = null;
        for (XidReading r : XidReading.ordered(readings)) {
            int code = r.code();
            if (previous != null && previous == code) {
                continue;
            }
            Integer from = previous;
            previous = code;
            if (code == 0) {
                recoverAll(open, incidents, r.at());
                continue;
            }
            recoverAnnounced(open, incidents, backAt, r.at());
            if (reportedByKernel(kernelXids, code, r.at(), tolerance)) {
                continue;
            }
            String cause = XidCatalog.cause(code);
            XidCatalog.Severity severity = XidCatalog.severity(code);
            RootCauseClass rootCause = code == 79 ? FailureCause.GPU_LOST.rootCause() : severity.rootCause();
            String evidence = "DCGM_FI_DEV_XID_ERRORS " + (from == null ? "first read as " : "changed from " + from + " to ")
                    + code + " (Xid " + code + ", " + severity.label() + ": " + XidCatalog.text(code) + ")";
            String key = "dcgm/" + uuid + "/" + cause + "/" + r.at();
            boolean atOnce = severity == XidCatalog.Severity.APPLICATION;
            Incident current = open.get(cause);
            if (current != null) {
                Incident merged = with(current, null, current.occurrences() + 1);
                open.put(cause, merged);
                incidents.put(merged.key(), merged);
                continue;
            }
            Incident incident = new Incident(key, "dcgm", uuid, cause, rootCause, r.node(), pci, uuid, null, null, null,
                    r.at(), atOnce ? r.at() : null, null, 1, evidence);
            incidents.put(key, incident);
            if (!atOnce) {
                open.put(cause, incident);
            }
        }
        if (!open.isEmpty()) {
            recoverAnnounced(open, incidents, backAt, Instant.MAX);
        }
        return List.copyOf(incidents.values());
    }

    private static boolean reportedByKernel(List<XidFact> kernelXids, int code, Instant at, Duration tolerance) {
        return kernelXids.stream().anyMatch(x -> x.code() == code
                && Duration.between(x.at(), at).abs().compareTo(tolerance) <= 0);
    }

    private static void recoverAll(Map<String, Incident> open, Map<String, Incident> incidents, Instant at) {
        for (Incident i : List.copyOf(open.values())) {
            Incident recovered = with(i, at, i.occurrences());
            incidents.put(i.key(), recovered);
        }
        open.clear();
    }

    /** Open incidents the driver announced the card back for, at the first announcement after their start. */
    private static void recoverAnnounced(Map<String, Incident> open, Map<String, Incident> incidents, List<Instant> backAt,
                                         Instant before) {
        for (Incident i : List.copyOf(open.values())) {
            backAt.stream().filter(t -> t.isAfter(i.startedAt()) && t.isBefore(before)).findFirst().ifPresent(t -> {
                incidents.put(i.key(), with(i, t, i.occurrences()));
                open.remove(i.cause());
            });
        }
    }

    private static Incident with(Incident i, Instant recoveredAt, int occurrences) {
        return new Incident(i.key(), i.scope(), i.subject(), i.cause(), i.rootCause(), i.node(), i.gpuPci(), i.gpuUuid(),
                i.namespace(), i.pod(), i.podUid(), i.startedAt(), recoveredAt, i.endedAt(), occurrences, i.evidence());
    }
}
