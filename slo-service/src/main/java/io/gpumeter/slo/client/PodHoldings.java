package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.time.Instant;
import java.util.List;

/** The ledger's answer for one pod of a holdings read: each unit it held with the part of the window it was held. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PodHoldings(String namespace, String pod, List<Holding> units) {

    /** One unit, held over {@code [from, to)} within the window asked. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Holding(Instant from, Instant to, Occupant occupant) {

        public boolean heldAt(Instant t) {
            return !from.isAfter(t) && to.isAfter(t);
        }
    }

    public String podKey() {
        return namespace + "/" + pod;
    }
}
