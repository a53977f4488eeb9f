package io.gpumeter.ledger.triage.domain;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One unit of a card a pod held over [since, until), as the allocated ledger booked it.
 *
 * @param gpuUuid   null where neither the pod nor an exporter named the card
 * @param unitKind  WHOLE, MIG, VGPU or SHARED
 * @param memoryMib a HAMi grant's memory; null for the other kinds (a whole card's is the card's, a MIG
 *                  instance's its profile's, a time-slice's is not isolated)
 * @param until     null while held
 */
public record Holding(String namespace, String pod, String podUid, String node, String gpuUuid, String unitKind,
                      String migProfile, Integer cores, Long memoryMib, BigDecimal fraction, Instant since, Instant until,
                      String tenant) {

    public boolean covers(Instant t) {
        return !t.isBefore(since) && (until == null || t.isBefore(until));
    }

    /** Whether it was held at any instant of [from, to]. */
    public boolean overlaps(Instant from, Instant to) {
        return !since.isAfter(to) && (until == null || until.isAfter(from));
    }

    public String podKey() {
        return namespace + "/" + pod;
    }

    public boolean mig() {
        return "MIG".equals(unitKind);
    }

    /** What this unit is, in words: "a whole card", "a MIG 1g.10gb instance", "a HAMi share of 8192 MiB, 30 % cores". */
    public String words() {
        return switch (unitKind) {
            case "WHOLE" -> "a whole card";
            case "MIG" -> "a MIG " + (migProfile == null ? "" : migProfile + " ") + "instance";
            case "VGPU" -> "a HAMi share" + (memoryMib == null ? "" : " of " + memoryMib + " MiB")
                    + (cores == null ? "" : ", " + cores + " % cores");
            default -> "a shared (time-sliced) replica";
        };
    }
}
