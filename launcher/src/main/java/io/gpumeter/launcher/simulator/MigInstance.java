package io.gpumeter.launcher.simulator;

/** One MIG instance carved out of a physical GPU; {@code slot} numbers the instances of that card. */
public record MigInstance(String gpuUuid, MigProfile profile, int slot, String uuid) {
}
