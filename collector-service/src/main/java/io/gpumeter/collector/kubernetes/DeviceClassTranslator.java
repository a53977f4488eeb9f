package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.gpumeter.common.fact.DeviceClassFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Reduces a DeviceClass to the CEL selectors that pick its devices. */
public final class DeviceClassTranslator {

    private DeviceClassTranslator() {
    }

    public static DeviceClassFact translate(DeviceClass deviceClass, WatchEventType type, Instant observedAt) {
        ObjectMeta meta = io.gpumeter.collector.kubernetes.Objects.metadata(deviceClass.getMetadata(), false);
        var spec = deviceClass.getSpec();
        List<String> selectors = spec == null || spec.getSelectors() == null ? List.of()
                : spec.getSelectors().stream().filter(s -> s.getCel() != null).map(s -> s.getCel().getExpression())
                .filter(Objects::nonNull).toList();
        return new DeviceClassFact(meta.getName(), meta.getResourceVersion(), type, observedAt, selectors,
                spec == null ? null : spec.getExtendedResourceName());
    }
}
