package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.Grant;
import io.gpumeter.launcher.simulator.SimGpu;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What each card did in each minute: its units' work — a level drawn by the pod's uid, the first service busy, idle
 * while its host holds it back — the noisy neighbour's and the embedding job's on top.
 */
final class DemoCards {

    /** Activity levels a unit is drawn into: idle allocations, moderate and busy work. */
    static final double IDLE = 0.02;
    static final double MODERATE = 0.35;
    static final double BUSY = 0.85;
    static final double CHAT = 0.60;

    private final DemoSignals signals;
    private final DemoNeighbour neighbour;
    private final SimPod chatPod;

    DemoCards(DemoSignals signals, DemoNeighbour neighbour) {
        this.signals = signals;
        this.neighbour = neighbour;
        this.chatPod = signals.services().get(0).pod();
    }

    /** How busy a unit's work is: a level drawn by its uid (the first service busy), then a little noise a minute. */
    double activity(SimPod pod, Instant minute) {
        double base;
        if (signals.host().waitsOnHost(pod, minute)) {
            base = IDLE;
        } else if (pod == chatPod) {
            base = CHAT;
        } else {
            int roll = Math.floorMod(pod.uid().hashCode(), 10);
            base = roll < 3 ? IDLE : roll < 6 ? MODERATE : BUSY;
        }
        return round(base * (0.9 + 0.2 * signals.noise(pod.uid(), minute)));
    }

    /** The share of the whole card a unit's work takes: its activity times its cores (10 % when it reserved none). */
    double cardShare(SimPod pod, Grant grant, Instant minute) {
        double cores = grant.migProfile() != null ? grant.migProfile().slices() / 7.0
                : grant.cores() >= 100 ? 1.0 : grant.cores() == 0 ? 0.1 : grant.cores() / 100.0;
        return activity(pod, minute) * cores;
    }

    /** The framebuffer a unit's work fills: little when it idles, most of what it reserved otherwise. */
    long memoryUsedMib(SimPod pod, Grant grant, Instant minute) {
        return Math.round(grant.memoryMib() * (activity(pod, minute) <= IDLE * 1.1 ? 0.15 : 0.8));
    }

    /**
     * The card's activity in {@code minute}: the sum of its units' shares, capped at 1; the neighbour's and the
     * embedding job's on top.
     */
    CardMinute card(SimGpu gpu, Instant minute) {
        CardMinute c = cardWithout(gpu, minute);
        DemoOom oom = signals.oom();
        if (!oom.runs(gpu, minute)) {
            return c;
        }
        return new CardMinute(round(Math.min(1, c.sm() + DemoOom.SM_SHARE)), c.dram(),
                Math.min(gpu.memoryMib(), c.fbUsedMib() + oom.usedMib(minute)), c.holders());
    }

    /** The card's minute without the embedding job that runs out of memory, read at the minute's middle. */
    CardMinute cardWithout(SimGpu gpu, Instant minute) {
        Instant mid = minute.plusSeconds(30);
        List<CardMinute.Holder> holders = new ArrayList<>();
        double sm = 0;
        double dram = 0;
        double fb = 0;
        for (SimPod pod : signals.plan().occupants(gpu.uuid(), mid)) {
            for (Grant g : pod.grants()) {
                if (g.gpuUuid().equals(gpu.uuid())) {
                    double share = cardShare(pod, g, minute);
                    holders.add(new CardMinute.Holder(pod, g, share));
                    sm += share;
                    dram += share * 0.5;
                    fb += memoryUsedMib(pod, g, minute);
                }
            }
        }
        if (neighbour.holds(gpu.uuid(), mid)) {
            sm += DemoNeighbour.SM_SHARE;
            dram = DemoNeighbour.DRAM;
            fb += DemoNeighbour.MEMORY_MIB;
        }
        return new CardMinute(round(Math.min(1, sm)), round(Math.min(1, dram)),
                Math.min(gpu.memoryMib(), Math.round(fb)), holders);
    }

    /** Four decimals: the figures the scrapes print stay short. */
    static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
