package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.Grant;
import io.gpumeter.launcher.simulator.SimPod;

import java.util.List;

/** What a card did in one minute, read at its middle ({@link DemoCards}). */
public record CardMinute(double sm, double dram, double fbUsedMib, List<Holder> holders) {

    /** A unit on the card at that minute, with the share of the card its work took. */
    public record Holder(SimPod pod, Grant grant, double share) {
    }
}
