package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The ledger's answer for one card of a card holdings read: each unit held on it with the part of the window. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CardHoldings(String gpuUuid, List<PodHoldings.Holding> units) {
}
