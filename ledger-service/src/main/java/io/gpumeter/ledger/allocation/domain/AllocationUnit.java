package io.gpumeter.ledger.allocation.domain;

import java.math.BigDecimal;

/**
 * One unit a pod holds: which card (when known), what share of it, and that share in card-equivalents.
 *
 * @param source      the fact the unit comes from (hami-annotation, mig-resource, device-plugin)
 * @param migInstance the GPU instance id of a MIG unit, when an exporter named it
 */
public record AllocationUnit(UnitKind kind, String gpuUuid, String gpuModel, String migProfile, Integer cores,
                             Long memoryMib, BigDecimal fraction, String source, String migInstance) {

    public AllocationUnit(UnitKind kind, String gpuUuid, String gpuModel, String migProfile, Integer cores,
                          Long memoryMib, BigDecimal fraction, String source) {
        this(kind, gpuUuid, gpuModel, migProfile, cores, memoryMib, fraction, source, null);
    }
}
