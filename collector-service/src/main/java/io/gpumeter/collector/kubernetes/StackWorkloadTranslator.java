package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.List;

/** Reduces a DaemonSet or Deployment that configuration names as a GPU-stack component to its images. */
public final class StackWorkloadTranslator {

    private StackWorkloadTranslator() {
    }

    /** True for the kinds this translator reads. */
    public static boolean handles(HasMetadata object) {
        return object instanceof DaemonSet || object instanceof Deployment;
    }

    public static StackWorkloadFact translate(HasMetadata workload, WatchEventType type, Instant observedAt,
                                              StackComponents components) {
        ObjectMeta meta = Objects.metadata(workload.getMetadata(), true);
        String kind = workload instanceof DaemonSet ? "DaemonSet" : "Deployment";
        String component = components.component(meta.getNamespace(), kind, meta.getName());
        if (component == null) {
            throw new Skip(kind + " not a configured component of the GPU stack");
        }
        PodTemplateSpec template = workload instanceof DaemonSet ds
                ? ds.getSpec() == null ? null : ds.getSpec().getTemplate()
                : ((Deployment) workload).getSpec() == null ? null : ((Deployment) workload).getSpec().getTemplate();
        List<String> images = StackImages.of(template == null || template.getSpec() == null ? null
                : template.getSpec().getContainers(), "spec.template.spec.containers");
        return new StackWorkloadFact(meta.getNamespace(), meta.getName(), meta.getUid(), kind, component,
                meta.getResourceVersion(), type, ManagedFieldTimes.written(meta.getManagedFields(), type, observedAt),
                images);
    }
}
