package io.gpumeter.launcher.demo;

import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.Grant;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.SimPod;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One Q1 question worth showing: the shared HAMi card with the most tenants at some instant of the history, and
 * who the simulator put there.
 */
public record OccupancySample(String gpuUuid, Instant at, List<SimPod> occupants) {

    public static Optional<OccupancySample> busiest(Plan plan) {
        OccupancySample best = null;
        for (SimPod pod : plan.pods()) {
            if (pod.pool() != GpuPool.HAMI || pod.startedAt() == null) {
                continue;
            }
            Instant at = pod.startedAt().plusSeconds(60);
            if (!at.isBefore(plan.end()) || !pod.holdsAt(at)) {
                continue;
            }
            for (Grant grant : pod.grants()) {
                List<SimPod> occupants = plan.occupants(grant.gpuUuid(), at);
                if (best == null || occupants.size() > best.occupants().size()) {
                    best = new OccupancySample(grant.gpuUuid(), at, occupants);
                }
            }
        }
        return Optional.ofNullable(best);
    }
}
