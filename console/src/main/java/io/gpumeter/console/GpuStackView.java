package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one node's GPU stack offered at an instant ({@link GpuStackAnswer}) as the Changes page shows it: data plane or
 * control plane — whether the node offered its GPUs (allocatable against capacity), its cordon and taints, the driver
 * and CUDA its feature discovery labels name, its MIG layout, and each stack component's version and its pod there
 * (Ready, Restarting, CrashLoopBackOff, NotReady or Absent).
 */
@TemplateData
public record GpuStackView(String at, boolean present, String cordoned, String driver, String cuda, String product,
                           String mig, List<Resource> resources, List<String> taints, List<Component> components,
                           List<String> seenDrivers) {

    /** A GPU resource: allocatable against capacity; {@code short_} when the node offers fewer than it has. */
    @TemplateData
    public record Resource(String resource, Long allocatable, Long capacity, boolean short_) {
    }

    @TemplateData
    public record Component(String component, String version, String state, String pod, Integer restarts, String waiting) {

        public boolean healthy() {
            return "Ready".equals(state);
        }
    }

    static GpuStackView of(GpuStackAnswer s) {
        List<Resource> resources = orEmpty(s.resources()).stream().map(r -> new Resource(r.resource(), r.allocatable(), r.capacity(),
                r.allocatable() != null && r.capacity() != null && r.allocatable() < r.capacity())).toList();
        List<String> taints = orEmpty(s.taints()).stream().map(t -> (t.key() == null ? "" : t.key())
                + (t.value() != null ? "=" + t.value() : "") + (t.effect() != null ? ":" + t.effect() : "")).toList();
        List<Component> components = new ArrayList<>();
        for (GpuStackAnswer.Component c : orEmpty(s.components())) {
            List<String> versions = orEmpty(c.workloads()).stream().map(GpuStackAnswer.Workload::version).filter(Objects::nonNull)
                    .distinct().toList();
            GpuStackAnswer.Pod pod = c.pod() == null ? new GpuStackAnswer.Pod(null, null, null, null, null, null) : c.pod();
            String version = String.join(", ", versions) + (pod.version() != null && !versions.contains(pod.version())
                    ? (versions.isEmpty() ? "" : "; ") + "pod runs " + pod.version() : "");
            components.add(new Component(c.component(), version, pod.state() == null ? "" : pod.state(),
                    pod.name() != null ? pod.namespace() + "/" + pod.name() : "", pod.restarts(),
                    pod.waitingReason() == null ? "" : pod.waitingReason()));
        }
        List<String> seen = orEmpty(s.driverVersions()).stream().map(d -> d.source() + " saw " + d.version() + " on " + d.gpuUuid()).toList();
        GpuStackAnswer.Labels labels = s.gpuLabels() == null ? new GpuStackAnswer.Labels(null, null, null, null, null) : s.gpuLabels();
        String mig = (labels.migConfig() == null ? "" : labels.migConfig())
                + (labels.migConfigState() != null ? " (" + labels.migConfigState() + ")" : "");
        return new GpuStackView(s.at(), s.present(),
                s.cordoned() == null ? "not known" : s.cordoned() ? "cordoned" : "schedulable",
                blank(labels.driverVersion()), blank(labels.cudaVersion()), blank(labels.product()), mig.strip(), resources, taints,
                components, seen);
    }

    private static String blank(String text) {
        return text == null ? "" : text;
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
