package io.gpumeter.ledger.dra.domain;

import io.gpumeter.common.fact.DraDevice;
import io.gpumeter.common.fact.ResourceSliceFact;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The devices the ResourceSlices publish, by driver, pool and device name. Where two slices of a pool name the same
 * device, the one of the newer pool generation describes it (Kubernetes ignores the older generation).
 */
public final class DraDevices {

    private final Map<String, ResourceSliceFact> byDevice = new HashMap<>();

    public DraDevices(List<ResourceSliceFact> slices) {
        slices.stream().sorted(Comparator.comparingLong(ResourceSliceFact::poolGeneration)).forEach(slice ->
                slice.devices().forEach(d -> byDevice.put(key(slice.driver(), slice.pool(), d.name()), slice)));
    }

    public static DraDevices none() {
        return new DraDevices(List.of());
    }

    public Optional<DraDevice> device(String driver, String pool, String device) {
        ResourceSliceFact slice = byDevice.get(key(driver, pool, device));
        if (slice == null) {
            return Optional.empty();
        }
        return slice.devices().stream().filter(d -> device.equals(d.name())).reduce((a, b) -> b);
    }

    private static String key(String driver, String pool, String device) {
        return driver + "\u0000" + pool + "\u0000" + device;
    }
}
