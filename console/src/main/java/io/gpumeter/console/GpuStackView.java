package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one node's GPU stack offered at an instant, from the ledger's {@code GET /api/v1/nodes/{node}/gpu-stack}: data
 * plane or control plane — whether the node offered its GPUs (allocatable against capacity), its cordon and taints, the
 * driver and CUDA its feature discovery labels name, its MIG layout, and each stack component's version and its pod
 * there (Ready, Restarting, CrashLoopBackOff, NotReady or Absent).
 */
@TemplateData
public record GpuStackView(String at, boolean present, String cordoned, String driver, String cuda, String product,
                           String mig, List<Resource> resources, List<String> taints, List<Component> components,
                           List<String> seenDrivers) {

    /** A GPU resource: allocatable against capacity; {@code short_} when the node offers fewer than it has. */
    @TemplateData
    public record Resource(String resource, String allocatable, String capacity, boolean short_) {
    }

    @TemplateData
    public record Component(String component, String version, String state, String pod, String restarts, String waiting) {

        public boolean healthy() {
            return "Ready".equals(state);
        }
    }

    static GpuStackView of(JsonNode s) {
        List<Resource> resources = new ArrayList<>();
        for (JsonNode r : s.path("resources")) {
            JsonNode a = r.get("allocatable");
            JsonNode c = r.get("capacity");
            boolean isShort = a != null && c != null && !a.isNull() && !c.isNull() && a.asLong() < c.asLong();
            resources.add(new Resource(Format.text(r, "resource"), a == null || a.isNull() ? "" : a.asText(),
                    c == null || c.isNull() ? "" : c.asText(), isShort));
        }
        List<String> taints = new ArrayList<>();
        for (JsonNode t : s.path("taints")) {
            taints.add(Optional.ofNullable(Format.text(t, "key")).orElse("") + (t.hasNonNull("value") ? "=" + Format.text(t, "value") : "")
                    + (t.hasNonNull("effect") ? ":" + Format.text(t, "effect") : ""));
        }
        List<Component> components = new ArrayList<>();
        for (JsonNode c : s.path("components")) {
            List<String> versions = new ArrayList<>();
            for (JsonNode w : c.path("workloads")) {
                String v = Format.text(w, "version");
                if (v != null && !versions.contains(v)) {
                    versions.add(v);
                }
            }
            JsonNode pod = c.path("pod");
            String podVersion = Format.text(pod, "version");
            String version = String.join(", ", versions) + (podVersion != null && !versions.contains(podVersion)
                    ? (versions.isEmpty() ? "" : "; ") + "pod runs " + podVersion : "");
            String name = pod.hasNonNull("name") ? Format.text(pod, "namespace") + "/" + Format.text(pod, "name") : "";
            components.add(new Component(Format.text(c, "component"), version, Optional.ofNullable(Format.text(pod, "state")).orElse(""),
                    name, pod.hasNonNull("restarts") ? pod.get("restarts").asText() : "",
                    Optional.ofNullable(Format.text(pod, "waitingReason")).orElse("")));
        }
        List<String> seen = new ArrayList<>();
        for (JsonNode d : s.path("driverVersions")) {
            seen.add(Format.text(d, "source") + " saw " + Format.text(d, "version") + " on " + Format.text(d, "gpuUuid"));
        }
        JsonNode labels = s.path("gpuLabels");
        String mig = Optional.ofNullable(Format.text(labels, "migConfig")).orElse("")
                + (labels.hasNonNull("migConfigState") ? " (" + Format.text(labels, "migConfigState") + ")" : "");
        JsonNode cordoned = s.get("cordoned");
        return new GpuStackView(Format.text(s, "at"), s.path("present").asBoolean(true),
                cordoned == null || cordoned.isNull() ? "not known" : cordoned.asBoolean() ? "cordoned" : "schedulable",
                Optional.ofNullable(Format.text(labels, "driverVersion")).orElse(""), Optional.ofNullable(Format.text(labels, "cudaVersion")).orElse(""),
                Optional.ofNullable(Format.text(labels, "product")).orElse(""), mig.strip(), resources, taints, components, seen);
    }
}
