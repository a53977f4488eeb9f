package io.gpumeter.ledger.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Names the cards of units the pod object left anonymous (whole cards, time-slices, MIG instances from the device
 * plugin) from what exporters saw during the allocation: each sighting names at most one unit.
 */
public final class CardNaming {

    private CardNaming() {
    }

    public static List<AllocationUnit> name(List<AllocationUnit> units, List<GpuBinding> bindings, Instant since,
                                            Instant until) {
        if (bindings.isEmpty() || units.stream().allMatch(u -> u.gpuUuid() != null)) {
            return units;
        }
        List<GpuBinding> sightings = bindings.stream().filter(b -> b.during(since, until))
                .sorted(Comparator.comparing(GpuBinding::firstSeen).thenComparing(GpuBinding::gpuUuid)
                        .thenComparing(GpuBinding::scopeKey))
                .toList();
        Set<GpuBinding> used = new HashSet<>();
        units.stream().map(AllocationUnit::gpuUuid).filter(Objects::nonNull)
                .forEach(uuid -> sightings.stream().filter(b -> b.gpuUuid().equals(uuid)).forEach(used::add));
        List<AllocationUnit> named = new ArrayList<>(units.size());
        for (AllocationUnit unit : units) {
            if (unit.gpuUuid() != null) {
                named.add(unit);
                continue;
            }
            GpuBinding match = sightings.stream().filter(b -> !used.contains(b)).filter(b -> fits(unit, b)).findFirst()
                    .orElse(null);
            if (match == null) {
                named.add(unit);
            } else {
                used.add(match);
                named.add(new AllocationUnit(unit.kind(), match.gpuUuid(), unit.gpuModel(), unit.migProfile(), unit.cores(),
                        unit.memoryMib(), unit.fraction(), unit.source() + "+exporter-labels",
                        match.isMigInstance() ? match.scopeKey() : null));
            }
        }
        return named;
    }

    private static boolean fits(AllocationUnit unit, GpuBinding binding) {
        if (unit.kind() == UnitKind.MIG) {
            return binding.isMigInstance()
                    && (binding.migProfile() == null || unit.migProfile() == null || profileMatches(unit.migProfile(), binding.migProfile()));
        }
        return !binding.isMigInstance();
    }

    private static boolean profileMatches(String unitProfile, String seen) {
        try {
            return MigProfile.parse(unitProfile).equals(MigProfile.parse(seen));
        } catch (IllegalArgumentException e) {
            return unitProfile.equalsIgnoreCase(seen);
        }
    }
}
