package io.gpumeter.ledger.domain;

import java.math.BigDecimal;
import java.util.Map;

/**
 * Allocated normalized GPU-hours of one group over a window.
 *
 * @param key   the group's values joined with '/', in the order asked for
 * @param group each dimension's value
 */
public record GpuHours(String key, Map<String, String> group, BigDecimal allocatedGpuHours) {
}
