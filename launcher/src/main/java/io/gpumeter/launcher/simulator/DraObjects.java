package io.gpumeter.launcher.simulator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.time.Instant;
import java.util.List;

/**
 * Dynamic Resource Allocation objects as NVIDIA's DRA driver (k8s-dra-driver-gpu), the scheduler and the kubelet
 * leave them: the driver's two DeviceClasses, the ResourceSlice of a node (a card as device {@code gpu-<minor>}, a
 * MIG device as {@code gpu-<minor>-mig-<GI profile id>-<placement start>-<size>}, each with the attributes and
 * capacities the driver sets), ResourceClaims before and after allocation, and pods naming their claims. The shapes
 * follow NVIDIA/k8s-dra-driver-gpu (Apache-2.0): {@code cmd/gpu-kubelet-plugin/deviceinfo.go} at commit 03af8246
 * (device names, attributes, capacities), {@code nvlib.go} (an A100 whose MIG mode is on advertises its MIG devices,
 * not the card) and the Helm chart's DeviceClasses, as the samples under collector-service's
 * {@code src/test/resources/dra/} do (their README names the sources).
 */
final class DraObjects {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final String API_VERSION = "resource.k8s.io/v1";
    static final String GPU_CLASS = "gpu.nvidia.com";
    static final String MIG_CLASS = "mig.nvidia.com";

    private DraObjects() {
    }

    /** One of the driver's DeviceClasses: devices of its driver whose {@code type} is {@code gpu} or {@code mig}. */
    static DeviceClass deviceClass(String name, String type, String uid, Instant created) {
        ObjectNode o = object("DeviceClass", name, null, uid, created);
        o.putObject("spec").putArray("selectors").addObject().putObject("cel").put("expression",
                "device.driver == '" + DraPool.DRIVER + "' && device.attributes['" + DraPool.DRIVER + "'].type == '"
                        + type + "'");
        return convert(o, DeviceClass.class);
    }

    /** The node's ResourceSlice: whole cards, and the MIG devices of the card in MIG mode (the card itself not). */
    static ResourceSlice slice(SimNode node, String name, String uid, Instant created) {
        ObjectNode o = object("ResourceSlice", name, null, uid, created);
        o.with("metadata").putArray("ownerReferences").addObject().put("apiVersion", "v1").put("kind", "Node")
                .put("name", node.name()).put("uid", node.uid()).put("controller", true);
        ObjectNode spec = o.putObject("spec");
        spec.put("driver", DraPool.DRIVER).put("nodeName", node.name());
        spec.putObject("pool").put("name", node.name()).put("generation", 1).put("resourceSliceCount", 1);
        ArrayNode devices = spec.putArray("devices");
        for (SimGpu gpu : node.gpus()) {
            List<MigInstance> instances = node.migInstances().stream().filter(i -> i.gpuUuid().equals(gpu.uuid())).toList();
            if (instances.isEmpty()) {
                ObjectNode device = devices.addObject().put("name", DraPool.deviceName(gpu));
                ObjectNode attributes = common(device, gpu);
                attributes.putObject("type").put("string", "gpu");
                attributes.putObject("uuid").put("string", gpu.uuid());
                attributes.putObject("pcieBusID").put("string", String.format("0000:%02x:00.0", 0x10 + gpu.index()));
                device.putObject("capacity").putObject("memory").put("value", (gpu.memoryMib() / 1024) + "Gi");
            }
            for (MigInstance instance : instances) {
                ObjectNode device = devices.addObject().put("name", DraPool.deviceName(gpu, instance));
                ObjectNode attributes = common(device, gpu);
                attributes.putObject("type").put("string", "mig");
                attributes.putObject("uuid").put("string", instance.uuid());
                attributes.putObject("parentUUID").put("string", gpu.uuid());
                attributes.putObject("profile").put("string", instance.profile().profile());
                ObjectNode capacity = device.putObject("capacity");
                capacity.putObject("multiprocessors").put("value", Integer.toString(instance.profile().multiprocessors()));
                capacity.putObject("memory").put("value", instance.profile().memoryMib() + "Mi");
                int start = DraPool.placementStart(instance);
                for (int s = start; s < start + DraPool.placementSize(instance.profile()); s++) {
                    capacity.putObject("memorySlice" + s).put("value", "1");
                }
            }
        }
        return convert(o, ResourceSlice.class);
    }

    private static ObjectNode common(ObjectNode device, SimGpu gpu) {
        ObjectNode attributes = device.putObject("attributes");
        attributes.putObject("productName").put("string", DraPool.PRODUCT_NAME);
        attributes.putObject("brand").put("string", "Nvidia");
        attributes.putObject("architecture").put("string", "Ampere");
        attributes.putObject("cudaComputeCapability").put("version", "8.0.0");
        attributes.putObject("driverVersion").put("version", "570.133.20");
        attributes.putObject("cudaDriverVersion").put("version", "12.8.0");
        return attributes;
    }

    /**
     * A claim: its one request (of a device class, one device, optionally a CEL selector), and once allocated, the
     * device and the pods it is reserved for.
     *
     * @param ownerPod  the pod a template-generated claim belongs to, null for a claim made by a user
     * @param device    the allocated device, null while unallocated
     * @param reservedFor the consumers, pods as {name, uid} pairs
     */
    static ResourceClaim claim(DraPool.Claim claim, SimPod ownerPod, Instant created, String device,
                               Instant allocatedAt, List<SimPod> reservedFor) {
        ObjectNode o = object("ResourceClaim", claim.name(), claim.namespace(), claim.uid(), created);
        if (ownerPod != null) {
            o.with("metadata").putArray("ownerReferences").addObject().put("apiVersion", "v1").put("kind", "Pod")
                    .put("name", ownerPod.name()).put("uid", ownerPod.uid()).put("controller", true)
                    .put("blockOwnerDeletion", true);
        }
        ObjectNode exactly = o.putObject("spec").putObject("devices").putArray("requests").addObject()
                .put("name", DraPool.REQUEST).putObject("exactly");
        exactly.put("deviceClassName", claim.deviceClass()).put("allocationMode", "ExactCount").put("count", 1);
        if (claim.selector() != null) {
            exactly.putArray("selectors").addObject().putObject("cel").put("expression", claim.selector());
        }
        if (device != null) {
            ObjectNode status = o.putObject("status");
            ObjectNode allocation = status.putObject("allocation");
            allocation.putObject("devices").putArray("results").addObject().put("request", DraPool.REQUEST)
                    .put("driver", DraPool.DRIVER).put("pool", DraPool.NODE).put("device", device);
            allocation.putObject("nodeSelector").putArray("nodeSelectorTerms").addObject().putArray("matchFields")
                    .addObject().put("key", "metadata.name").put("operator", "In").putArray("values").add(DraPool.NODE);
            allocation.put("allocationTimestamp", Rfc3339.format(allocatedAt));
            ArrayNode reserved = status.putArray("reservedFor");
            reservedFor.forEach(p -> reserved.addObject().put("resource", "pods").put("name", p.name()).put("uid", p.uid()));
        }
        return convert(o, ResourceClaim.class);
    }

    /** How far a DRA pod has got. */
    enum Stage { PENDING, BOUND, RUNNING }

    /**
     * A pod holding one claim: by a template (the generated claim's name then in its status from the start) or by
     * the claim's own name. It asks for no GPU resource: its container names the claim instead.
     */
    static Pod pod(SimPod pod, DraPool.Claim claim, String template, String image, Stage stage) {
        ObjectNode o = object("Pod", pod.name(), pod.namespace(), pod.uid(), pod.createdAt());
        o.put("apiVersion", "v1");
        if (pod.owner() != null) {
            ObjectNode meta = o.with("metadata");
            meta.put("generateName", pod.owner().name() + "-");
            meta.putArray("ownerReferences").addObject()
                    .put("apiVersion", "Job".equals(pod.owner().kind()) ? "batch/v1" : "apps/v1")
                    .put("kind", pod.owner().kind()).put("name", pod.owner().name()).put("uid", pod.owner().uid())
                    .put("controller", true).put("blockOwnerDeletion", true);
        }
        ObjectNode spec = o.putObject("spec");
        ObjectNode container = spec.putArray("containers").addObject().put("name", "main").put("image", image);
        container.putObject("resources").putArray("claims").addObject().put("name", DraPool.REQUEST);
        ObjectNode podClaim = spec.putArray("resourceClaims").addObject().put("name", DraPool.REQUEST);
        if (template != null) {
            podClaim.put("resourceClaimTemplateName", template);
        } else {
            podClaim.put("resourceClaimName", claim.name());
        }
        spec.put("restartPolicy", pod.owner() != null && "Job".equals(pod.owner().kind()) ? "Never" : "Always");
        spec.put("schedulerName", "default-scheduler");
        ObjectNode status = o.putObject("status");
        status.put("phase", stage == Stage.RUNNING ? "Running" : "Pending");
        if (template != null) {
            status.putArray("resourceClaimStatuses").addObject().put("name", DraPool.REQUEST)
                    .put("resourceClaimName", claim.name());
        }
        if (stage != Stage.PENDING) {
            spec.put("nodeName", DraPool.NODE);
            status.putArray("conditions").addObject().put("type", "PodScheduled").put("status", "True")
                    .put("lastTransitionTime", Rfc3339.format(pod.scheduledAt()));
            status.put("hostIP", DraPool.HOST_IP);
        }
        if (stage == Stage.RUNNING) {
            status.put("startTime", Rfc3339.format(pod.scheduledAt()));
            status.putArray("containerStatuses").addObject().put("name", "main").put("image", image)
                    .put("imageID", "").put("ready", true).put("restartCount", 0).put("started", true)
                    .put("containerID", "containerd://" + pod.uid().replace("-", ""))
                    .putObject("state").putObject("running").put("startedAt", Rfc3339.format(pod.startedAt()));
        }
        return convert(o, Pod.class);
    }

    private static ObjectNode object(String kind, String name, String namespace, String uid, Instant created) {
        ObjectNode o = JSON.createObjectNode();
        o.put("apiVersion", API_VERSION).put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        meta.put("uid", uid).put("creationTimestamp", Rfc3339.format(created));
        return o;
    }

    private static <T extends HasMetadata> T convert(ObjectNode o, Class<T> type) {
        return SERIALIZATION.unmarshal(o.toString(), type);
    }
}
