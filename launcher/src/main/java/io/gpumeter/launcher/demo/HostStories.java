package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.SimPod;

import java.time.Instant;

/**
 * The hosts' three stories ({@link DemoHost}), for checking what the suite makes of them: the pod throttled at its CPU
 * limit (namespace/name) and when, the job stalled on I/O and when, the card held at its power cap and when.
 */
public record HostStories(String cpuPod, String cpuService, String idleCpuPod, Instant cpuFrom, Instant cpuTo,
                          String ioPod, Instant ioFrom, Instant ioTo, String cappedCard, Instant capFrom,
                          Instant capTo) {

    static HostStories of(DemoHost h) {
        SimPod cpu = h.cpuPod();
        return new HostStories(key(cpu), cpu == null ? null : DemoSignals.SECOND_SERVICE, key(h.idleCpuPod()),
                h.cpuFrom(), h.cpuTo(), key(h.ioPod()), h.ioFrom(), h.ioTo(), h.cappedCard(), h.capFrom(), h.capTo());
    }

    private static String key(SimPod pod) {
        return pod == null ? null : pod.namespace() + "/" + pod.name();
    }
}
