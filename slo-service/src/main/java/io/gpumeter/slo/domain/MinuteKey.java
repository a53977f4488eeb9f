package io.gpumeter.slo.domain;

import java.time.Instant;

/** One pod's minute of one service: the natural key of the stored per-minute rows. */
public record MinuteKey(String service, String namespace, String pod, Instant minute) {

    public static MinuteKey of(LatencyRecord r) {
        return new MinuteKey(r.service(), r.namespace(), r.pod(), r.minute());
    }
}
