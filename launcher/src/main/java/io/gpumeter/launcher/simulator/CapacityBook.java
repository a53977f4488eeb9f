package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reservations on GPU units over time (a HAMi card, a whole card, a MIG instance): a unit admits a new hold only if
 * memory, cores and the number of holders stay within its capacity at every instant of the hold.
 */
final class CapacityBook {

    private record Hold(long from, long to, long memory, int cores) {
    }

    private record Unit(long memory, int cores, int holders, List<Hold> holds) {
    }

    private final Map<String, Unit> units = new HashMap<>();

    void addUnit(String key, long memory, int cores, int holders) {
        units.put(key, new Unit(memory, cores, holders, new ArrayList<>()));
    }

    /** True when a hold of {@code memory} and {@code cores} on unit {@code key} fits over {@code [from, to)}. */
    boolean fits(String key, Instant from, Instant to, long memory, int cores) {
        Unit unit = units.get(key);
        long start = from.getEpochSecond();
        long end = to.getEpochSecond();
        List<Hold> overlapping = unit.holds().stream().filter(h -> h.from() < end && h.to() > start).toList();
        // load is piecewise constant and only rises where a hold begins, so those points and the start suffice
        List<Long> probes = new ArrayList<>();
        probes.add(start);
        overlapping.stream().map(Hold::from).filter(f -> f > start).forEach(probes::add);
        for (long probe : probes) {
            long usedMemory = memory;
            int usedCores = cores;
            int holders = 1;
            for (Hold h : overlapping) {
                if (h.from() <= probe && probe < h.to()) {
                    usedMemory += h.memory();
                    usedCores += h.cores();
                    holders++;
                }
            }
            if (usedMemory > unit.memory() || usedCores > unit.cores() || holders > unit.holders()) {
                return false;
            }
        }
        return true;
    }

    void reserve(String key, Instant from, Instant to, long memory, int cores) {
        units.get(key).holds().add(new Hold(from.getEpochSecond(), to.getEpochSecond(), memory, cores));
    }

    /** The instants after {@code after} at which some hold on one of {@code keys} ends, ascending. */
    List<Instant> releasesAfter(Collection<String> keys, Instant after) {
        TreeSet<Long> releases = new TreeSet<>();
        for (String key : keys) {
            for (Hold h : units.get(key).holds()) {
                if (h.to() > after.getEpochSecond()) {
                    releases.add(h.to());
                }
            }
        }
        return releases.stream().map(Instant::ofEpochSecond).toList();
    }
}
