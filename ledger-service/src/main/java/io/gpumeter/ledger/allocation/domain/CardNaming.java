package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.ledger.history.domain.GpuBinding;
import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Names the cards of units the pod object left anonymous (whole cards, time-slices, MIG instances from the device
 * plugin), and the GPU instances of MIG devices held through ResourceClaims, from what exporters saw during the
 * allocation: each sighting names at most one unit.
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

    /**
     * Names the GPU instance of the MIG units a pod holds through ResourceClaims. NVIDIA's DRA driver publishes a MIG
     * device's own UUID, its card's ({@code parentUUID}) and its {@code profile}, never the GPU instance id that
     * dcgm-exporter keys a MIG instance's series by ({@code GPU_I_ID}); nor can the id be read off the device's name
     * or placement, which the driver assigns apart from it. What names it is a sighting: the pod on a MIG instance of
     * the unit's card whose profile is the unit's (the pod labels dcgm-exporter puts on that instance's series). Each
     * sighting names at most one unit, none that {@code named} units took; a unit no sighting names keeps none, and
     * its used hours are its card's activity apportioned among the card's units by fraction.
     */
    public static List<PodUnit> instances(List<PodUnit> claimed, List<AllocationUnit> named, List<GpuBinding> bindings,
                                          Instant since, Instant until) {
        if (bindings.isEmpty() || claimed.stream().noneMatch(p -> wantsInstance(p.unit()))) {
            return claimed;
        }
        Set<String> taken = new HashSet<>();
        named.stream().filter(u -> u.migInstance() != null).forEach(u -> taken.add(u.gpuUuid() + "/" + u.migInstance()));
        List<GpuBinding> sightings = bindings.stream()
                .filter(b -> b.isMigInstance() && b.during(since, until) && !taken.contains(b.gpuUuid() + "/" + b.scopeKey()))
                .sorted(Comparator.comparing(GpuBinding::firstSeen).thenComparing(GpuBinding::scopeKey))
                .toList();
        Set<GpuBinding> used = new HashSet<>();
        List<PodUnit> out = new ArrayList<>(claimed.size());
        for (PodUnit held : claimed) {
            AllocationUnit unit = held.unit();
            GpuBinding match = !wantsInstance(unit) ? null : sightings.stream()
                    .filter(b -> !used.contains(b) && b.gpuUuid().equals(unit.gpuUuid()))
                    .filter(b -> b.migProfile() == null || unit.migProfile() == null || profileMatches(unit.migProfile(), b.migProfile()))
                    .findFirst().orElse(null);
            if (match == null) {
                out.add(held);
                continue;
            }
            used.add(match);
            out.add(new PodUnit(new AllocationUnit(unit.kind(), unit.gpuUuid(), unit.gpuModel(), unit.migProfile(),
                    unit.cores(), unit.memoryMib(), unit.fraction(), unit.source() + "+exporter-labels", match.scopeKey()),
                    held.sharing()));
        }
        return out;
    }

    private static boolean wantsInstance(AllocationUnit unit) {
        return unit.kind() == UnitKind.MIG && unit.gpuUuid() != null && unit.migInstance() == null;
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
