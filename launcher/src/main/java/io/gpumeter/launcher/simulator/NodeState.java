package io.gpumeter.launcher.simulator;

import java.time.Instant;

/**
 * What the GPU stack has made of a node at one instant, as its labels and status show it: the driver and CUDA
 * versions feature discovery read, the MIG manager's desired layout and its state, and whether the device plugin
 * serves the node's cards.
 *
 * @param driver        the driver version, e.g. 550.54.15
 * @param cuda          the CUDA version the driver offers, e.g. 12.4
 * @param migConfig     {@code nvidia.com/mig.config}; null on nodes the MIG manager does not run on
 * @param migState      {@code nvidia.com/mig.config.state}: pending while the MIG manager applies a layout, then success
 * @param migApplied    whether the cards are cut into the MIG pool's instances (all-balanced) and advertised so
 * @param plugin        whether the device plugin serves the cards: false while it crash-loops, allocatable then 0
 * @param labelledAt    when feature discovery last rewrote the node's labels ({@code nvidia.com/gfd.timestamp})
 */
record NodeState(String driver, String cuda, String migConfig, String migState, boolean migApplied, boolean plugin,
                 Instant labelledAt) {
}
