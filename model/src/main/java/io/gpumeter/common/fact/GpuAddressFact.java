package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * The driver announcing a GPU at a PCI address ({@code NVRM: GPU at PCI:0000:9b:00: GPU-…}): maps the address to
 * the card, and marks the card present (attached or reset) at that instant. Natural key: all fields.
 */
public record GpuAddressFact(String node, String pciBusId, String gpuUuid, Instant at) {
}
