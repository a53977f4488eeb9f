package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import io.gpumeter.common.triage.FailureCause;

import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.XidFact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Xid incidents of one card (node and PCI address). An application Xid is the workload's fault and needs no
 * repair of the card: it recovers at once (the workload's own crash is counted on its pod). Any other Xid opens an
 * incident per cause that gathers further reports of the same code until the driver announces the card again
 * ("NVRM: GPU at PCI:…", on reset or reboot), which is its recovery. Xid 79 is the card lost.
 */
public final class GpuIncidents {

    private GpuIncidents() {
    }

    public static List<Incident> derive(String node, String pci, List<XidFact> xids, List<GpuAddressFact> announcements) {
        List<Object> timeline = new ArrayList<>(announcements);
        timeline.addAll(xids);
        // An announcement in the same second as an Xid came first: the card was there when it faulted.
        timeline.sort(Comparator.comparing((Object o) -> o instanceof XidFact x ? x.at() : ((GpuAddressFact) o).at())
                .thenComparing(o -> o instanceof XidFact ? 1 : 0));
        Map<String, Incident> incidents = new LinkedHashMap<>();
        Map<String, Incident> open = new HashMap<>();
        String uuid = xids.stream().map(XidFact::gpuUuid).filter(u -> u != null).findFirst().orElse(null);
        for (Object o : timeline) {
            if (o instanceof GpuAddressFact a) {
                uuid = a.gpuUuid();
                for (Incident i : List.copyOf(open.values())) {
                    if (i.startedAt().isBefore(a.at())) {
                        Incident recovered = copy(i, a.at(), i.occurrences(), i.gpuUuid() != null ? i.gpuUuid() : uuid);
                        incidents.put(i.key(), recovered);
                        open.remove(i.cause());
                    }
                }
                continue;
            }
            XidFact x = (XidFact) o;
            String card = x.gpuUuid() != null ? x.gpuUuid() : uuid;
            String cause = XidCatalog.cause(x.code());
            XidCatalog.Severity severity = XidCatalog.severity(x.code());
            RootCauseClass rootCause = x.code() == 79 ? FailureCause.GPU_LOST.rootCause() : severity.rootCause();
            String evidence = "Xid " + x.code() + " (" + severity.label() + ": " + XidCatalog.text(x.code()) + "): " + x.message();
            String key = "gpu/" + node + "/" + pci + "/" + cause + "/" + x.at();
            if (severity == XidCatalog.Severity.APPLICATION) {
                incidents.putIfAbsent(key, new Incident(key, "gpu", node + "/" + pci, cause, rootCause, node, pci, card,
                        null, null, null, x.at(), x.at(), null, 1, evidence));
                continue;
            }
            Incident current = open.get(cause);
            if (current != null) {
                Incident merged = copy(current, null, current.occurrences() + 1, current.gpuUuid() != null ? current.gpuUuid() : card);
                open.put(cause, merged);
                incidents.put(merged.key(), merged);
                continue;
            }
            Incident incident = new Incident(key, "gpu", node + "/" + pci, cause, rootCause, node, pci, card, null, null,
                    null, x.at(), null, null, 1, evidence);
            open.put(cause, incident);
            incidents.put(key, incident);
        }
        return List.copyOf(incidents.values());
    }

    private static Incident copy(Incident i, Instant recoveredAt, int occurrences, String uuid) {
        return new Incident(i.key(), i.scope(), i.subject(), i.cause(), i.rootCause(), i.node(), i.gpuPci(), uuid,
                i.namespace(), i.pod(), i.podUid(), i.startedAt(), recoveredAt, i.endedAt(), occurrences, i.evidence());
    }
}
