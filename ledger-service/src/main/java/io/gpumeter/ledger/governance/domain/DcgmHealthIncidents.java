package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.FailureCause;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GPU health incidents of one card as its dcgm-exporter memory-health series tell them. The card is unhealthy
 * while any {@link HealthSignal} reads above 0: an incident starts when the first signal turns bad, gathers every
 * further report (another signal turning bad, a count rising) as an occurrence, and recovers when every signal read
 * is back at 0 — the reset or driver reload that repairs the card clears them all. The first reading ever seen counts
 * when it is bad (the ledger cannot know how long it has been). Readings of one second are taken together, so
 * signals clearing and turning bad in the same scrape do not split an incident.
 */
public final class DcgmHealthIncidents {

    public static final String SCOPE = "dcgm-health";

    private DcgmHealthIncidents() {
    }

    public static List<Incident> derive(String uuid, List<HealthReading> readings) {
        Map<Instant, List<HealthReading>> bySecond = new TreeMap<>();
        readings.stream().sorted(HealthReading.ORDER)
                .forEach(r -> bySecond.computeIfAbsent(r.at(), k -> new ArrayList<>()).add(r));
        Map<HealthSignal, Long> last = new EnumMap<>(HealthSignal.class);
        List<Incident> incidents = new ArrayList<>();
        Incident open = null;
        for (Map.Entry<Instant, List<HealthReading>> second : bySecond.entrySet()) {
            for (HealthReading r : second.getValue()) {
                Long before = last.put(r.signal(), r.value());
                if (!r.signal().worsened(before, r.value())) {
                    continue;
                }
                if (open == null) {
                    open = new Incident(SCOPE + "/" + uuid + "/" + FailureCause.GPU_HEALTH.label() + "/" + r.at(), SCOPE, uuid,
                            FailureCause.GPU_HEALTH.label(), FailureCause.GPU_HEALTH.rootCause(), r.node(), null, uuid, null,
                            null, null, r.at(), null, null, 1, evidence(r, before));
                } else {
                    open = with(open, null, open.occurrences() + 1);
                }
            }
            if (open != null && last.values().stream().allMatch(v -> v <= 0)) {
                incidents.add(with(open, second.getKey(), open.occurrences()));
                open = null;
            }
        }
        if (open != null) {
            incidents.add(open);
        }
        return incidents;
    }

    private static String evidence(HealthReading r, Long before) {
        return r.signal().metric() + (before == null ? " first read as " : " changed from " + before + " to ") + r.value()
                + " (" + r.signal().meaning() + ")";
    }

    private static Incident with(Incident i, Instant recoveredAt, int occurrences) {
        return new Incident(i.key(), i.scope(), i.subject(), i.cause(), i.rootCause(), i.node(), i.gpuPci(), i.gpuUuid(),
                i.namespace(), i.pod(), i.podUid(), i.startedAt(), recoveredAt, i.endedAt(), occurrences, i.evidence());
    }
}
