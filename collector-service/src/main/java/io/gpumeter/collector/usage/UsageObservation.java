package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.UsageField;

import java.time.Instant;
import java.util.Objects;

/**
 * One field value of one GPU at one instant, in the units of {@link UsageField} (activities as ratios 0..1).
 *
 * @param migProfile    the MIG instance profile ({@code 1g.5gb}) when the series is one instance's, else null
 * @param migInstanceId the GPU instance id when the series is one instance's, else null
 * @param namespace     the pod the producer attributed the series to, if any; likewise {@code pod}, {@code container}
 * @param pid           the process the series is one of, when the producer measures processes (nvidia-smi), else null
 */
public record UsageObservation(String gpuUuid, String node, String model, String migProfile, Integer migInstanceId,
                               String namespace, String pod, String container, Long pid, UsageField field,
                               double value, Instant at) {

    /** An observation of a device, a MIG instance or a container: no process. */
    public UsageObservation(String gpuUuid, String node, String model, String migProfile, Integer migInstanceId,
                            String namespace, String pod, String container, UsageField field, double value,
                            Instant at) {
        this(gpuUuid, node, model, migProfile, migInstanceId, namespace, pod, container, null, field, value, at);
    }

    public UsageObservation {
        if (gpuUuid == null || gpuUuid.isBlank()) {
            throw new IllegalArgumentException("gpuUuid is required");
        }
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(at, "at");
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("value must be finite");
        }
    }

    /** The same series' reading of another field at the same instant: a decoded bit of a bitmask, say. */
    public UsageObservation with(UsageField otherField, double otherValue) {
        return new UsageObservation(gpuUuid, node, model, migProfile, migInstanceId, namespace, pod, container, pid,
                otherField, otherValue, at);
    }

    /** A device-level observation: no MIG instance, no pod. */
    static UsageObservation device(String gpuUuid, String node, String model, UsageField field, double value,
                                   Instant at) {
        return new UsageObservation(gpuUuid, node, model, null, null, null, null, null, field, value, at);
    }
}
