package io.gpumeter.ledger.domain;

import java.math.BigDecimal;

/**
 * One unit a pod holds: which card (when known), what share of it, and that share in card-equivalents.
 *
 * @param source the fact the unit comes from (hami-annotation, mig-resource, device-plugin)
 */
public record AllocationUnit(UnitKind kind, String gpuUuid, String gpuModel, String migProfile, Integer cores,
                             Long memoryMib, BigDecimal fraction, String source) {
}
