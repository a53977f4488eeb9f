package io.gpumeter.launcher.demo;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimGpu;

import java.time.Duration;
import java.time.Instant;

/**
 * An out-of-memory under a neighbour's pressure: a batch embedding job of the first service's tenant is placed by
 * HAMi on the card the service and the noisy neighbour share, with a memory grant that overcommits the card (HAMi's
 * memory scaling promises more than the card has). It grows slowly and stays under its grant; the card fills with
 * everyone's use, and at {@link #oomAt()} its CUDA allocation fails ("CUDA out of memory") while its own use is three
 * quarters of its grant. Its memory and the card's are in the usage scrapes, its log line in its container log.
 */
final class DemoOom {

    static final String NAMESPACE = "acme-inference";
    static final String POD = "embed-batch-0";
    static final String CONTAINER = "embed";
    /** The share of its grant it uses at the end, and where it starts. */
    static final double END_SHARE = 0.75;
    static final double START_SHARE = 0.40;
    /** How full the card is at the end: past the triage's "full". */
    static final double CARD_FULL = 0.98;
    static final double SM_SHARE = 0.05;

    private final DemoSignals signals;
    private final SimGpu card;
    private final long grantMib;

    DemoOom(DemoSignals signals) {
        this.signals = signals;
        this.card = signals.plan().gpus().filter(g -> g.uuid().equals(signals.sharedCard())).findFirst().orElseThrow();
        // the grant that, at three quarters, fills the card beside what the others use at the end
        double others = signals.cardWithout(card, oomAt().minusSeconds(60)).fbUsedMib();
        long needed = Math.round((CARD_FULL * card.memoryMib() - others) / END_SHARE);
        this.grantMib = Math.max(2048, Math.min(card.memoryMib(), needed));
    }

    /** A minute after the jitter episode, so that it is no suspect of it. */
    Instant createdAt() {
        return signals.jitterEnd().plus(Duration.ofMinutes(1));
    }

    /** The failed allocation, five minutes into its run. */
    Instant oomAt() {
        return createdAt().plus(Duration.ofMinutes(5)).plusSeconds(17);
    }

    long grantMib() {
        return grantMib;
    }

    /** Whether the job holds the card in the minute starting at {@code minute}. */
    boolean runs(SimGpu gpu, Instant minute) {
        return gpu.uuid().equals(card.uuid()) && !minute.isBefore(createdAt()) && minute.isBefore(oomAt());
    }

    /** Its framebuffer in a minute it runs: from {@value #START_SHARE} to {@value #END_SHARE} of its grant, linearly. */
    long usedMib(Instant minute) {
        double span = Duration.between(createdAt(), oomAt()).toSeconds();
        double done = Math.min(1, Math.max(0, Duration.between(createdAt(), minute.plusSeconds(60)).toSeconds() / span));
        return Math.round(grantMib * (START_SHARE + (END_SHARE - START_SHARE) * done));
    }

    /** The HAMi monitor's series of the job for one minute's scrape. */
    String hamiLabels() {
        return "deviceuuid=\"" + card.uuid() + "\",podnamespace=\"" + NAMESPACE + "\",podname=\"" + POD
                + "\",ctrname=\"" + CONTAINER + "\",vdeviceid=\"0\"";
    }

    /** Its container's log as {@code kubectl logs --timestamps} prints it: PyTorch's message on the failed allocation. */
    DemoSignals.Push logPush() {
        Instant at = oomAt();
        String body = Rfc3339.format(at.minusSeconds(40)) + " INFO embedding shard 41 of 64\n"
                + Rfc3339.format(at) + " torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0"
                + " has a total capacity of " + String.format(java.util.Locale.ROOT, "%.2f", card.memoryMib() / 1024.0)
                + " GiB of which 112.00 MiB is free.\n";
        return new DemoSignals.Push("collector", "/api/v1/ingest/container-log?namespace=" + NAMESPACE + "&pod=" + POD
                + "&container=" + CONTAINER, "text/plain", body);
    }

    /** The job's pod as its last version shows it: it ran on the shared card and failed when the allocation did. */
    Pod pod() {
        String created = Rfc3339.format(createdAt());
        String started = Rfc3339.format(createdAt().plusSeconds(4));
        String failed = Rfc3339.format(oomAt().plusSeconds(1));
        String image = "nvcr.io/nvidia/pytorch:24.10-py3";
        return new PodBuilder()
                .withNewMetadata().withName(POD).withNamespace(NAMESPACE)
                .withUid("demo-" + signals.plan().seed() + "-" + POD).withCreationTimestamp(created)
                .addToLabels("app", "embed-batch")
                .addToAnnotations("hami.io/vgpu-devices-allocated", card.uuid() + ",NVIDIA," + grantMib + ",20:;")
                .addToAnnotations("hami.io/vgpu-devices-to-allocate", ";")
                .addToAnnotations("hami.io/vgpu-node", signals.sharedNode())
                .addToAnnotations("hami.io/bind-phase", "success")
                .addToAnnotations("hami.io/bind-time", String.valueOf(createdAt().getEpochSecond()))
                // the kubelet's last write, when it reported the failure: what dates this version
                .addNewManagedField().withManager("kubelet").withOperation("Update").withApiVersion("v1")
                .withTime(failed).endManagedField()
                .endMetadata()
                .withNewSpec().withSchedulerName("hami-scheduler").withNodeName(signals.sharedNode()).withRestartPolicy("Never")
                .addNewContainer().withName(CONTAINER).withImage(image)
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity(Long.toString(grantMib)))
                .addToLimits("nvidia.com/gpucores", new Quantity("20"))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Failed").withHostIP(signals.sharedHostIp()).withStartTime(created)
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(created).endCondition()
                .addNewCondition().withType("Ready").withStatus("False").withReason("PodFailed")
                .withLastTransitionTime(failed).endCondition()
                .addNewContainerStatus().withName(CONTAINER).withReady(false).withRestartCount(0).withImage(image)
                .withNewState().withNewTerminated().withReason("Error").withExitCode(1).withStartedAt(started)
                .withFinishedAt(failed).endTerminated().endState().endContainerStatus()
                .endStatus().build();
    }

    /** The pod as a watch event, for the replay endpoint when the collector watches nothing. */
    String ndjson() {
        Pod pod = pod();
        pod.getMetadata().setResourceVersion("1");
        return "{\"type\":\"ADDED\",\"object\":" + io.fabric8.kubernetes.client.utils.Serialization.asJson(pod) + "}\n";
    }
}
