package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.gpumeter.common.fact.DraDevice;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reduces a ResourceSlice to its driver, pool and the attributes and capacities of its devices. */
public final class ResourceSliceTranslator {

    private ResourceSliceTranslator() {
    }

    /**
     * When the version was written, as for a node (its latest managedFields time). A slice is a driver's inventory of
     * a node's devices: one listed without managedFields (a replay, an API server that keeps none) is dated at its
     * creation, when the driver published the devices, not at the collector's first sight, so a replayed or freshly
     * watched node's devices are in the inventory from when they were.
     */
    static Instant written(ObjectMeta meta, WatchEventType type, Instant seen) {
        Instant written = ManagedFieldTimes.written(meta.getManagedFields(), type, seen);
        if (type == WatchEventType.ADDED && (meta.getManagedFields() == null || meta.getManagedFields().isEmpty())) {
            Instant created = Timestamps.parse(meta.getCreationTimestamp(), "metadata.creationTimestamp");
            if (created != null && created.isBefore(written)) {
                return created;
            }
        }
        return written;
    }

    public static ResourceSliceFact translate(ResourceSlice slice, WatchEventType type, Instant observedAt) {
        ObjectMeta meta = Objects.metadata(slice.getMetadata(), false);
        ResourceSliceSpec spec = slice.getSpec();
        if (spec == null || blank(spec.getDriver())) {
            throw new Skip("ResourceSlice without spec.driver");
        }
        if (spec.getPool() == null || blank(spec.getPool().getName())) {
            throw new Skip("ResourceSlice without spec.pool.name");
        }
        List<DraDevice> devices = new ArrayList<>();
        for (Device device : spec.getDevices() == null ? List.<Device>of() : spec.getDevices()) {
            if (blank(device.getName())) {
                throw new Skip("ResourceSlice device without name");
            }
            devices.add(new DraDevice(device.getName(), attributes(device.getAttributes()), capacity(device.getCapacity())));
        }
        Long generation = spec.getPool().getGeneration();
        return new ResourceSliceFact(meta.getName(), meta.getResourceVersion(), type, written(meta, type, observedAt),
                spec.getDriver(),
                spec.getPool().getName(), generation == null ? 0 : generation, spec.getNodeName(), devices);
    }

    /** Each attribute's one value as text: exactly one of string, int, bool or version is set. */
    static Map<String, String> attributes(Map<String, DeviceAttribute> attributes) {
        Map<String, String> out = new TreeMap<>();
        if (attributes == null) {
            return out;
        }
        attributes.forEach((name, a) -> {
            String value = a == null ? null : a.getString() != null ? a.getString()
                    : a.getInt() != null ? a.getInt().toString() : a.getBool() != null ? a.getBool().toString()
                    : a.getVersion();
            if (value != null) {
                out.put(name, value);
            }
        });
        return out;
    }

    private static Map<String, String> capacity(Map<String, DeviceCapacity> capacity) {
        Map<String, String> out = new TreeMap<>();
        if (capacity != null) {
            capacity.forEach((name, c) -> {
                if (c != null && c.getValue() != null) {
                    out.put(name, c.getValue().toString());
                }
            });
        }
        return out;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
