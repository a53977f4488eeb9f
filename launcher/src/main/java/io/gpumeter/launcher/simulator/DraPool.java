package io.gpumeter.launcher.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The DRA node pool: one A100 node whose four cards NVIDIA's DRA driver ({@code gpu.nvidia.com}) publishes in one
 * ResourceSlice — gpu-0, gpu-1 and gpu-3 whole, gpu-2 in MIG mode cut all-balanced (two 1g.10gb, one 2g.20gb, one
 * 3g.40gb; its MIG devices are published and the card itself is not, as the driver does for an A100 whose MIG mode
 * is on) — and four pods holding devices through ResourceClaims on a fixed plan counted back from the end of the
 * history, so that their holdings are known by hand:
 * <ul>
 *   <li>{@code acme-training/dra-train-…} (Job dra-train): gpu-0 whole from 6 h before the end, through a claim
 *   generated from a template;</li>
 *   <li>{@code umbrella-research/dra-notebook} (a bare pod): the 3g.40gb device of gpu-2 from 5 h before the end, 3/7
 *   of the card;</li>
 *   <li>{@code acme-inference/dra-infer-…} two replicas of Deployment dra-infer share one claim on gpu-1, the first
 *   from 4 h before the end, the second from 3 h before: ½ each while both hold it.</li>
 * </ul>
 * All of them run on past the end; gpu-3 and the other MIG devices stay free.
 */
public final class DraPool {

    public static final String NODE = "gpu-a100-dra-01";
    public static final String DRIVER = "gpu.nvidia.com";
    static final String PRODUCT_NAME = "NVIDIA A100-SXM4-80GB";
    static final String HOST_IP = "10.0.1.41";
    /** The one request of every claim here, and the name the pods give their claim. */
    static final String REQUEST = "gpu";
    static final int CARDS = 4;
    static final int MIG_CARD = 2;
    public static final Duration TRAIN_BEFORE_END = Duration.ofHours(6);
    public static final Duration NOTEBOOK_BEFORE_END = Duration.ofHours(5);
    public static final Duration FIRST_REPLICA_BEFORE_END = Duration.ofHours(4);
    public static final Duration SECOND_REPLICA_BEFORE_END = Duration.ofHours(3);
    private static final long CREATED_BEFORE_SCHEDULED = 10;
    private static final long STARTED_AFTER_SCHEDULED = 30;

    /** A ResourceClaim of the pool: its request's device class and CEL selector (null for none). */
    record Claim(String namespace, String name, String uid, String deviceClass, String selector) {
    }

    private DraPool() {
    }

    /** The node: four A100 cards, the MIG instances of card {@link #MIG_CARD}. */
    static SimNode node(Ids ids) {
        String uid = ids.uid();
        List<SimGpu> gpus = new ArrayList<>();
        List<MigInstance> instances = new ArrayList<>();
        for (int i = 0; i < CARDS; i++) {
            SimGpu gpu = new SimGpu(ids.gpuUuid(), NODE, i, Fleet.A100, Fleet.A100_MEMORY_MIB);
            gpus.add(gpu);
            if (i == MIG_CARD) {
                int slot = 0;
                for (MigProfile profile : MigProfile.values()) {
                    for (int k = 0; k < profile.perGpu(); k++) {
                        instances.add(new MigInstance(gpu.uuid(), profile, slot++, ids.migUuid()));
                    }
                }
            }
        }
        return new SimNode(NODE, uid, GpuPool.DRA, Fleet.A100, HOST_IP, gpus, instances);
    }

    /** The driver's name of a whole card: {@code gpu-<minor>}. */
    static String deviceName(SimGpu gpu) {
        return "gpu-" + gpu.index();
    }

    /** The driver's name of a MIG device: {@code gpu-<minor>-mig-<GI profile id>-<placement start>-<size>}. */
    static String deviceName(SimGpu gpu, MigInstance instance) {
        return "gpu-" + gpu.index() + "-mig-" + giProfileId(instance.profile()) + "-" + placementStart(instance) + "-"
                + placementSize(instance.profile());
    }

    /** NVML's GPU instance profile id of the A100 80GB profiles. */
    static int giProfileId(MigProfile profile) {
        return switch (profile) {
            case MIG_1G_10GB -> 19;
            case MIG_2G_20GB -> 14;
            case MIG_3G_40GB -> 9;
        };
    }

    /** Memory slices a placement spans on an A100 80GB: a 3g instance takes four of the eight. */
    static int placementSize(MigProfile profile) {
        return switch (profile) {
            case MIG_1G_10GB -> 1;
            case MIG_2G_20GB -> 2;
            case MIG_3G_40GB -> 4;
        };
    }

    /** The all-balanced layout's placements: 2g at 0, the two 1g at 2 and 3, 3g at 4. */
    static int placementStart(MigInstance instance) {
        return switch (instance.profile()) {
            case MIG_2G_20GB -> 0;
            case MIG_1G_10GB -> 2 + instance.slot();
            case MIG_3G_40GB -> 4;
        };
    }

    /** Adds the pool's objects to the history and returns what its pods held. */
    static List<SimPod> add(SimNode node, Ids ids, long seed, SimulationWindow window, Timeline timeline) {
        Instant start = window.start();
        Instant end = window.end();
        timeline.add(start, EventType.ADDED, DraObjects.deviceClass(DraObjects.GPU_CLASS, "gpu", ids.uid(), start));
        timeline.add(start, EventType.ADDED, DraObjects.deviceClass(DraObjects.MIG_CLASS, "mig", ids.uid(), start));
        timeline.add(start, EventType.ADDED, DraObjects.slice(node, NODE + "-" + DRIVER + "-" + ids.suffix(5), ids.uid(),
                start));
        SimGpu whole = node.gpus().get(0);
        SimGpu shared = node.gpus().get(1);
        SimGpu migCard = node.gpus().get(MIG_CARD);
        MigInstance threeG = node.migInstances().stream().filter(i -> i.profile() == MigProfile.MIG_3G_40GB)
                .findFirst().orElseThrow();
        List<SimPod> pods = new ArrayList<>();

        String trainName = "dra-train-" + ids.suffix(5);
        SimPod train = pod(ids, Tenancy.ACME_TRAINING, trainName, new PodOwner("Job", "dra-train", ids.uid(), null),
                end.minus(TRAIN_BEFORE_END), new Grant(whole.uuid(), null, null, whole.memoryMib(), 100));
        Claim trainClaim = new Claim(train.namespace(), trainName + "-gpu-" + ids.suffix(5), ids.uid(),
                DraObjects.GPU_CLASS, null);
        templated(timeline, train, trainClaim, "single-gpu", deviceName(whole), "nvcr.io/nvidia/pytorch:24.08-py3");
        pods.add(train);

        SimPod notebook = pod(ids, Tenancy.UMBRELLA_RESEARCH, "dra-notebook", null, end.minus(NOTEBOOK_BEFORE_END),
                new Grant(migCard.uuid(), MigProfile.MIG_3G_40GB, threeG.uuid(), threeG.profile().memoryMib(),
                        100 * threeG.profile().slices() / 7));
        Claim notebookClaim = new Claim(notebook.namespace(), "dra-notebook-gpu-" + ids.suffix(5), ids.uid(),
                DraObjects.MIG_CLASS, "device.attributes['" + DRIVER + "'].profile == '3g.40gb'");
        templated(timeline, notebook, notebookClaim, "mig-3g-40gb", deviceName(migCard, threeG),
                "quay.io/jupyter/pytorch-notebook:cuda12-2024-10-07");
        pods.add(notebook);

        String replicaSet = "dra-infer-" + Ids.templateHash(seed, "dra-infer", 1);
        PodOwner owner = new PodOwner("ReplicaSet", replicaSet, Ids.replicaSetUid(seed, "dra-infer", 1), "dra-infer");
        Grant card = new Grant(shared.uuid(), null, null, shared.memoryMib(), 100);
        SimPod first = pod(ids, Tenancy.ACME_INFERENCE, replicaSet + "-" + ids.suffix(5), owner,
                end.minus(FIRST_REPLICA_BEFORE_END), card);
        SimPod second = pod(ids, Tenancy.ACME_INFERENCE, replicaSet + "-" + ids.suffix(5), owner,
                end.minus(SECOND_REPLICA_BEFORE_END), card);
        Claim sharedClaim = new Claim(Tenancy.ACME_INFERENCE, "dra-infer-shared", ids.uid(), DraObjects.GPU_CLASS, null);
        String image = "vllm/vllm-openai:v0.6.3";
        Instant made = first.createdAt().minusSeconds(60);
        timeline.add(made, EventType.ADDED, DraObjects.claim(sharedClaim, null, made, null, null, List.of()));
        for (SimPod p : List.of(first, second)) {
            timeline.add(p.createdAt(), EventType.ADDED, DraObjects.pod(p, sharedClaim, null, image, DraObjects.Stage.PENDING));
            timeline.add(p.scheduledAt(), EventType.MODIFIED, DraObjects.claim(sharedClaim, null, made,
                    deviceName(shared), first.scheduledAt(), p == first ? List.of(first) : List.of(first, second)));
            bound(timeline, p, sharedClaim, null, image);
            pods.add(p);
        }
        return pods;
    }

    /** A pod whose claim a template generates with it: the claim made with the pod, allocated as it is scheduled. */
    private static void templated(Timeline timeline, SimPod pod, Claim claim, String template, String device,
                                  String image) {
        timeline.add(pod.createdAt(), EventType.ADDED, DraObjects.pod(pod, claim, template, image, DraObjects.Stage.PENDING));
        timeline.add(pod.createdAt(), EventType.ADDED,
                DraObjects.claim(claim, pod, pod.createdAt(), null, null, List.of()));
        timeline.add(pod.scheduledAt(), EventType.MODIFIED,
                DraObjects.claim(claim, pod, pod.createdAt(), device, pod.scheduledAt(), List.of(pod)));
        bound(timeline, pod, claim, template, image);
    }

    /** The pod bound to the node once its claim is allocated and reserved for it, then running. */
    private static void bound(Timeline timeline, SimPod pod, Claim claim, String template, String image) {
        timeline.add(pod.scheduledAt(), EventType.MODIFIED, DraObjects.pod(pod, claim, template, image, DraObjects.Stage.BOUND));
        timeline.add(pod.startedAt(), EventType.MODIFIED, DraObjects.pod(pod, claim, template, image, DraObjects.Stage.RUNNING));
    }

    private static SimPod pod(Ids ids, String namespace, String name, PodOwner owner, Instant scheduled, Grant grant) {
        return new SimPod(ids.uid(), namespace, name, GpuPool.DRA, owner, NODE, List.of(grant),
                scheduled.minusSeconds(CREATED_BEFORE_SCHEDULED), scheduled, scheduled.plusSeconds(STARTED_AFTER_SCHEDULED),
                null, null, null, null, PodEnding.RUNNING_AT_END, null);
    }
}
