package io.gpumeter.launcher.simulator;

/** The kinds of GPU work the simulated tenants run. */
enum Template {
    /** Long-lived model servers on HAMi vGPUs, owned by a Deployment's ReplicaSet. */
    INFERENCE(GpuPool.HAMI, "Deployment", "vllm/vllm-openai:v0.6.3", "server", "Always"),
    /** Interactive notebooks on HAMi vGPUs, bare pods, mostly without a core reservation. */
    NOTEBOOK(GpuPool.HAMI, null, "quay.io/jupyter/pytorch-notebook:cuda12-2024-10-07", "notebook", "Never"),
    /** Training Jobs on whole cards, one to eight per pod. */
    TRAINING(GpuPool.WHOLE_CARD, "Job", "nvcr.io/nvidia/pytorch:24.08-py3", "trainer", "Never"),
    /** Short evaluation Jobs on a small HAMi share: seconds to minutes. */
    EVAL(GpuPool.HAMI, "Job", "nvcr.io/nvidia/pytorch:24.08-py3", "eval", "Never"),
    /** Small model servers on MIG instances, owned by a Deployment's ReplicaSet. */
    MIG_SERVING(GpuPool.MIG, "Deployment", "nvcr.io/nvidia/tritonserver:24.08-py3", "triton", "Always"),
    /** Batch Jobs on MIG instances. */
    MIG_BATCH(GpuPool.MIG, "Job", "nvcr.io/nvidia/cuda:12.6.2-runtime-ubuntu22.04", "worker", "Never");

    final GpuPool pool;
    /** Deployment, Job, or null for a bare pod. */
    final String controller;
    final String image;
    final String container;
    final String restartPolicy;

    Template(GpuPool pool, String controller, String image, String container, String restartPolicy) {
        this.pool = pool;
        this.controller = controller;
        this.image = image;
        this.container = container;
        this.restartPolicy = restartPolicy;
    }
}
