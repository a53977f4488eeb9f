package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Pod objects at each step of their life, shaped as the API server, the scheduler, HAMi and the kubelet leave them. */
final class PodObjects {

    /** How far a pod has got. */
    enum Stage { PENDING, UNSCHEDULABLE, BOUND, RUNNING, TERMINATED }

    private PodObjects() {
    }

    /**
     * A fresh snapshot of the pod at {@code stage}.
     *
     * @param deletionTimestamp null unless a delete was requested
     * @param graceSeconds      the deletionGracePeriodSeconds that goes with it
     */
    static Pod snapshot(PodStory s, Stage stage, Instant deletionTimestamp, Long graceSeconds) {
        boolean bound = stage.compareTo(Stage.BOUND) >= 0;
        return new PodBuilder()
                .withMetadata(metadata(s, bound, deletionTimestamp, graceSeconds))
                .withNewSpec()
                .addNewContainer()
                .withName(s.template.container)
                .withImage(s.template.image)
                .withImagePullPolicy("IfNotPresent")
                .withNewResources()
                .withLimits(limits(s))
                .withRequests(requests(s))
                .endResources()
                .endContainer()
                .withRestartPolicy(s.template.restartPolicy)
                .withTerminationGracePeriodSeconds(PodStory.GRACE_SECONDS)
                .withSchedulerName(s.volcanoQueue != null ? "volcano"
                        : s.template.pool == GpuPool.HAMI ? "hami-scheduler" : "default-scheduler")
                .withServiceAccountName("default")
                .withNodeSelector(s.nodeSelector)
                .withNodeName(bound ? s.nodeName : null)
                .addNewToleration().withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").endToleration()
                .endSpec()
                .withStatus(PodStatuses.status(s, stage))
                .build();
    }

    private static ObjectMeta metadata(PodStory s, boolean bound, Instant deletionTimestamp, Long graceSeconds) {
        Map<String, String> labels = new LinkedHashMap<>();
        ObjectMetaBuilder meta = new ObjectMetaBuilder()
                .withName(s.name)
                .withNamespace(s.namespace)
                .withUid(s.uid)
                .withCreationTimestamp(Rfc3339.format(s.createdAt))
                .withDeletionTimestamp(Rfc3339.format(deletionTimestamp))
                .withDeletionGracePeriodSeconds(graceSeconds);
        if (s.volcanoQueue != null) {
            volcano(s, meta, labels);
        } else if (s.owner != null) {
            meta.withGenerateName(s.owner.name() + "-");
            meta.addNewOwnerReference()
                    .withApiVersion("Job".equals(s.owner.kind()) ? "batch/v1" : "apps/v1")
                    .withKind(s.owner.kind())
                    .withName(s.owner.name())
                    .withUid(s.owner.uid())
                    .withController(true)
                    .withBlockOwnerDeletion(true)
                    .endOwnerReference();
            if ("Job".equals(s.owner.kind())) {
                labels.put("batch.kubernetes.io/controller-uid", s.owner.uid());
                labels.put("batch.kubernetes.io/job-name", s.owner.name());
                labels.put("controller-uid", s.owner.uid());
                labels.put("job-name", s.owner.name());
            } else {
                labels.put("app", s.owner.deployment());
                labels.put("pod-template-hash", s.owner.name().substring(s.owner.deployment().length() + 1));
            }
        } else {
            labels.put("app", "notebook");
        }
        labels.put("gpumeter.io/project", s.project);
        meta.withLabels(labels);
        if (bound && s.template.pool == GpuPool.HAMI) {
            meta.withAnnotations(hamiAnnotations(s));
        }
        return meta.build();
    }

    /**
     * What Volcano's job controller writes on the pods it creates (pkg/controllers/job createJobPod): the Job as
     * controller, its name, namespace, queue and the pod's task as labels, and the PodGroup the scheduler gangs it in.
     */
    private static void volcano(PodStory s, ObjectMetaBuilder meta, Map<String, String> labels) {
        meta.addNewOwnerReference().withApiVersion(VolcanoJobs.API_VERSION).withKind("Job").withName(s.owner.name())
                .withUid(s.owner.uid()).withController(true).withBlockOwnerDeletion(true).endOwnerReference();
        labels.put("volcano.sh/job-name", s.owner.name());
        labels.put("volcano.sh/job-namespace", s.namespace);
        labels.put("volcano.sh/queue-name", s.volcanoQueue);
        labels.put("volcano.sh/task-spec", s.volcanoTask);
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("scheduling.k8s.io/group-name", s.volcanoPodGroup);
        annotations.put("volcano.sh/job-name", s.owner.name());
        annotations.put("volcano.sh/queue-name", s.volcanoQueue);
        annotations.put("volcano.sh/task-spec", s.volcanoTask);
        meta.withAnnotations(annotations);
    }

    /** What HAMi's scheduler extender and device plugin write once the pod is bound and its devices allocated. */
    private static Map<String, String> hamiAnnotations(PodStory s) {
        Grant g = s.grants.get(0);
        String devices = g.gpuUuid() + ",NVIDIA," + g.memoryMib() + "," + g.cores() + ":;";
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("hami.io/bind-phase", "success");
        annotations.put("hami.io/bind-time", Long.toString(s.scheduledAt.getEpochSecond()));
        annotations.put("hami.io/vgpu-devices-allocated", devices);
        annotations.put("hami.io/vgpu-devices-to-allocate", ";");
        annotations.put("hami.io/vgpu-node", s.nodeName);
        annotations.put("hami.io/vgpu-time", Long.toString(s.scheduledAt.getEpochSecond()));
        return annotations;
    }

    private static Map<String, Quantity> limits(PodStory s) {
        Map<String, Quantity> limits = new LinkedHashMap<>();
        limits.put("cpu", new Quantity("8"));
        limits.put("memory", new Quantity("64Gi"));
        limits.putAll(gpuResources(s));
        return limits;
    }

    private static Map<String, Quantity> requests(PodStory s) {
        Map<String, Quantity> requests = new LinkedHashMap<>();
        requests.put("cpu", new Quantity("4"));
        requests.put("memory", new Quantity("32Gi"));
        requests.putAll(gpuResources(s));
        return requests;
    }

    static Map<String, Quantity> gpuResources(PodStory s) {
        Map<String, Quantity> out = new LinkedHashMap<>();
        switch (s.template.pool) {
            case HAMI -> {
                out.put("nvidia.com/gpu", new Quantity("1"));
                out.put("nvidia.com/gpumem", new Quantity(Long.toString(s.gpumem)));
                if (s.coresDeclared) {
                    out.put("nvidia.com/gpucores", new Quantity(Integer.toString(s.gpucores)));
                }
            }
            case WHOLE_CARD -> out.put("nvidia.com/gpu", new Quantity(Integer.toString(s.wholeCards)));
            case MIG -> out.put(s.migProfile.resourceName(), new Quantity("1"));
        }
        return out;
    }
}
