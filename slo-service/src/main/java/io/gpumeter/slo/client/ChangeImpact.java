package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * What the ledger answers of a change's impact that a jitter count needs: the change, the nodes it touched, and the
 * windows before and after it with the GPU-hours allocated on those nodes in each.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChangeImpact(Change change, List<String> nodes, Side before, Side after) {

    /** One window {@code [from, to)} and the GPU-hours the ledger counted over it. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Side(Instant from, Instant to, BigDecimal gpuHours) {
    }
}
