package io.gpumeter.collector.usage;

import java.time.Instant;

/**
 * One row of {@code nvidia-smi pmon}: a process's share of the whole card's SMs and memory bandwidth over the
 * sample period. MIG-enabled cards print {@code -}, read as null.
 *
 * @param type     C (compute), G (graphics), C+G, M (MPS) …; null when printed as {@code -}
 * @param smRatio  0..1 of the card's SM time, null when not reported
 * @param memRatio 0..1 of the card's memory bandwidth time, null when not reported
 * @param at       the row's own date and time when pmon printed them ({@code -o DT}), else the time the body arrived
 */
public record ProcessUtilization(int gpuIndex, long pid, String type, Double smRatio, Double memRatio, String command,
                                 Instant at) {
}
