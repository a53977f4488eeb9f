package io.gpumeter.ledger.fragmentation.domain;

import io.gpumeter.ledger.allocation.domain.UnitKind;

/** An allocation unit held at the probe's instant; gpuUuid is null while no source named the card. */
public record HeldUnit(String cluster, String node, String gpuUuid, UnitKind kind, String migProfile, int cores,
                       long memoryMib) {
}
