package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Binds pods without what no translator of a pod reads: the field sets of managed fields (their times date a GPU-stack
 * pod's version), volumes, the scheduling constraints that never decide whether a node can take the pod (pod
 * affinity and anti-affinity, preferred node affinity, topology spread), and each container's command, environment,
 * probes and mounts. In
 * an API server's watch output these are most of a pod's bytes; skipped, they cost a pass of the tokenizer instead of
 * a model built and thrown away. What is left out cannot make a pod unreadable either. Only pods are bound this way:
 * a Namespace's managed fields date its labels.
 */
final class LeanPods {

    private LeanPods() {
    }

    /** A copy of {@code model} that leaves those fields out of the classes a pod is made of. */
    static ObjectMapper mapper(ObjectMapper model) {
        return model.copy()
                .addMixIn(ManagedFieldsEntry.class, LeanManagedFields.class)
                .addMixIn(PodSpec.class, LeanPodSpec.class)
                .addMixIn(Affinity.class, LeanAffinity.class)
                .addMixIn(NodeAffinity.class, LeanNodeAffinity.class)
                .addMixIn(Container.class, LeanContainer.class)
                .addMixIn(ContainerStatus.class, LeanContainerStatus.class);
    }

    @JsonIgnoreProperties({"fieldsV1", "fieldsType", "subresource"})
    @RegisterForReflection
    private interface LeanManagedFields {
    }

    // the node selector, the required node affinity and the tolerations stay: they tell where a GPU pod may go
    @JsonIgnoreProperties({"volumes", "topologySpreadConstraints", "securityContext", "dnsConfig", "hostAliases",
            "imagePullSecrets", "readinessGates", "ephemeralContainers", "overhead"})
    @RegisterForReflection
    private interface LeanPodSpec {
    }

    @JsonIgnoreProperties({"podAffinity", "podAntiAffinity"})
    @RegisterForReflection
    private interface LeanAffinity {
    }

    @JsonIgnoreProperties({"preferredDuringSchedulingIgnoredDuringExecution"})
    @RegisterForReflection
    private interface LeanNodeAffinity {
    }

    // a container's image stays: a GPU-stack component's pod is known by it
    @JsonIgnoreProperties({"command", "args", "env", "envFrom", "imagePullPolicy", "ports", "volumeMounts",
            "volumeDevices", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle", "securityContext",
            "resizePolicy", "workingDir", "terminationMessagePath", "terminationMessagePolicy"})
    @RegisterForReflection
    private interface LeanContainer {
    }

    @JsonIgnoreProperties({"image", "imageID", "containerID", "volumeMounts", "allocatedResources",
            "allocatedResourcesStatus", "resources", "user"})
    @RegisterForReflection
    private interface LeanContainerStatus {
    }
}
