package io.gpumeter.common.fact;

import java.util.Map;

/**
 * One device a ResourceSlice publishes.
 *
 * @param attributes each attribute's value as text, whatever its kind (string, int, bool, version)
 * @param capacity   each capacity's quantity as Kubernetes writes it ("80Gi", "98")
 */
public record DraDevice(String name, Map<String, String> attributes, Map<String, String> capacity) {

    public DraDevice {
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        capacity = capacity == null ? Map.of() : Map.copyOf(capacity);
    }
}
