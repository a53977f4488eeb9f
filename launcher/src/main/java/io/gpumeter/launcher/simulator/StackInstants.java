package io.gpumeter.launcher.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * When each of the GPU stack's changes happens, counted back from the window's end (or, for the MIG layout, on from
 * its start) so that the instants are known by hand whatever the seed (see {@link StackPlan}).
 */
final class StackInstants {

    static final Duration UPGRADE_BEFORE_END = Duration.ofDays(2);
    /** The ClusterPolicy names the new driver this long before feature discovery sees it on the upgraded node. */
    static final Duration ROLLOUT_BEFORE_UPGRADE = Duration.ofMinutes(15);
    /** The node's driver pod is deleted (the operator's autoUpgrade is off: an administrator does it)... */
    static final Duration POD_DELETED_BEFORE_UPGRADE = Duration.ofMinutes(10);
    /** ...and its successor's startup probe passes once the modules are built and loaded. */
    static final Duration READY_BEFORE_UPGRADE = Duration.ofMinutes(1);
    static final Duration MIG_PENDING_AFTER_START = Duration.ofMinutes(2);
    static final Duration MIG_APPLIED_AFTER_PENDING = Duration.ofMinutes(5);
    static final Duration CRASH_LOOP_BEFORE_END = Duration.ofHours(20);
    static final Duration CRASH_LOOP_FOR = Duration.ofMinutes(20);
    /** The kubelet counts the plugin's devices unhealthy a few seconds after it dies, and again once it registers. */
    static final long ALLOCATABLE_DOWN_AFTER = 5;
    static final long ALLOCATABLE_UP_AFTER = 3;
    /** How long each failed run of the crash-looping container lasts. */
    static final long FAILED_RUN_SECONDS = 5;
    static final Duration DCGM_UPDATE_BEFORE_END = Duration.ofHours(6);

    private final SimulationWindow window;

    StackInstants(SimulationWindow window) {
        this.window = window;
    }

    Instant start() {
        return window.start();
    }

    Instant end() {
        return window.end();
    }

    Instant upgradeAt() {
        return window.end().minus(UPGRADE_BEFORE_END);
    }

    Instant rolloutAt() {
        return upgradeAt().minus(ROLLOUT_BEFORE_UPGRADE);
    }

    Instant driverPodDeletedAt() {
        return upgradeAt().minus(POD_DELETED_BEFORE_UPGRADE);
    }

    Instant driverReadyAt() {
        return upgradeAt().minus(READY_BEFORE_UPGRADE);
    }

    Instant migPendingAt() {
        return window.start().plus(MIG_PENDING_AFTER_START);
    }

    Instant migAppliedAt() {
        return migPendingAt().plus(MIG_APPLIED_AFTER_PENDING);
    }

    Instant crashFrom() {
        return window.end().minus(CRASH_LOOP_BEFORE_END);
    }

    /**
     * When the device plugin starts and stays up: its first restart once {@link #CRASH_LOOP_FOR} has passed (what
     * failed it is fixed by then), the kubelet's back-off deciding the instant.
     */
    Instant crashTo() {
        List<Instant> failures = failures();
        Instant last = failures.get(failures.size() - 1);
        return last.plusSeconds(backOff(failures.size() - 1));
    }

    /** The crash-looping container's failures: it runs {@link #FAILED_RUN_SECONDS} after each restart, then fails. */
    List<Instant> failures() {
        List<Instant> out = new ArrayList<>();
        Instant failure = crashFrom();
        Instant fixed = crashFrom().plus(CRASH_LOOP_FOR);
        for (int k = 0; ; k++) {
            out.add(failure);
            Instant restart = failure.plusSeconds(backOff(k));
            if (!restart.isBefore(fixed)) {
                return out;
            }
            failure = restart.plusSeconds(FAILED_RUN_SECONDS);
        }
    }

    /** The kubelet's back-off after the {@code k}-th failure (from 0): 10 s, doubling, at most 300 s. */
    static long backOff(int k) {
        return Math.min(10L << Math.min(k, 5), 300);
    }

    Instant allocatableDownAt() {
        return crashFrom().plusSeconds(ALLOCATABLE_DOWN_AFTER);
    }

    Instant allocatableUpAt() {
        return crashTo().plusSeconds(ALLOCATABLE_UP_AFTER);
    }

    Instant dcgmUpdateAt() {
        return window.end().minus(DCGM_UPDATE_BEFORE_END);
    }
}
