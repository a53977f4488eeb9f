package io.gpumeter.launcher.simulator;

/** A physical GPU of the simulated fleet; {@code uuid} is the root key every answer hangs from. */
public record SimGpu(String uuid, String nodeName, int index, String model, long memoryMib) {
}
