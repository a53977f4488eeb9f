package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reduces a Pod to the fact the allocated ledger needs, or skips it with a reason. */
public final class PodTranslator {

    private PodTranslator() {
    }

    public static PodFact translate(Pod pod, WatchEventType type, Instant observedAt) {
        ObjectMeta meta = Objects.metadata(pod.getMetadata(), true);
        Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
        List<VgpuGrant> vgpus;
        try {
            vgpus = HamiAnnotations.parseAllocated(annotations.get(HamiAnnotations.ALLOCATED));
        } catch (IllegalArgumentException e) {
            throw new Skip("invalid " + HamiAnnotations.ALLOCATED + " annotation");
        }
        Map<String, Long> gpuResources = gpuResources(pod);
        List<PodClaim> claims = claims(pod);
        if (gpuResources.isEmpty() && vgpus.isEmpty() && claims.isEmpty()) {
            throw new Skip("no GPU requested");
        }
        var spec = pod.getSpec();
        var status = pod.getStatus();
        List<ContainerStatus> statuses = status == null || status.getContainerStatuses() == null
                ? List.of() : status.getContainerStatuses();
        int containers = spec == null || spec.getContainers() == null ? 0 : spec.getContainers().size();
        boolean allTerminated = !statuses.isEmpty() && statuses.size() >= containers
                && statuses.stream().allMatch(s -> s.getState() != null && s.getState().getTerminated() != null);
        Instant lastFinished = null;
        for (ContainerStatus s : statuses) {
            if (s.getState() != null && s.getState().getTerminated() != null) {
                Instant finished = Timestamps.parse(s.getState().getTerminated().getFinishedAt(),
                        "status.containerStatuses.state.terminated.finishedAt");
                if (finished != null && (lastFinished == null || finished.isAfter(lastFinished))) {
                    lastFinished = finished;
                }
            }
        }
        return new PodFact(meta.getUid(), meta.getNamespace(), meta.getName(), meta.getResourceVersion(), type,
                ManagedFieldTimes.written(meta.getManagedFields(), type, observedAt),
                Timestamps.parse(meta.getCreationTimestamp(), "metadata.creationTimestamp"),
                scheduledAt(pod), spec == null ? null : blankToNull(spec.getNodeName()),
                status == null ? null : status.getPhase(), spec == null ? null : spec.getSchedulerName(),
                allTerminated, lastFinished,
                Timestamps.parse(meta.getDeletionTimestamp(), "metadata.deletionTimestamp"),
                owner(meta), meta.getLabels(), gpuResources, vgpus, claims,
                blankToNull(annotations.get(HamiAnnotations.BIND_PHASE)), blankToNull(annotations.get(HamiAnnotations.NODE)));
    }

    /**
     * The pod's ResourceClaims: spec.resourceClaims, each resolved to the claim it names or, for a template, to the
     * claim generated for this pod as status.resourceClaimStatuses reports it (null until then).
     */
    static List<PodClaim> claims(Pod pod) {
        if (pod.getSpec() == null || pod.getSpec().getResourceClaims() == null) {
            return List.of();
        }
        Map<String, String> generated = new TreeMap<>();
        if (pod.getStatus() != null && pod.getStatus().getResourceClaimStatuses() != null) {
            for (PodResourceClaimStatus s : pod.getStatus().getResourceClaimStatuses()) {
                if (s.getName() != null && s.getResourceClaimName() != null) {
                    generated.put(s.getName(), s.getResourceClaimName());
                }
            }
        }
        List<PodClaim> claims = new ArrayList<>();
        for (PodResourceClaim c : pod.getSpec().getResourceClaims()) {
            if (c.getName() == null || c.getName().isBlank()) {
                throw new Skip("spec.resourceClaims[] without name");
            }
            String claimName = blankToNull(c.getResourceClaimName());
            claims.add(new PodClaim(c.getName(), claimName != null ? claimName : generated.get(c.getName()),
                    blankToNull(c.getResourceClaimTemplateName())));
        }
        return claims;
    }

    /** When the PodScheduled condition turned True. */
    static Instant scheduledAt(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return null;
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if ("PodScheduled".equals(c.getType()) && "True".equals(c.getStatus())) {
                return Timestamps.parse(c.getLastTransitionTime(), "status.conditions.lastTransitionTime");
            }
        }
        return null;
    }

    /**
     * The controller with the apiVersion its reference carries (written by the controller that made the pod, so its
     * group tells a Volcano Job from a batch/v1 Job); a ReplicaSet named {@code <deployment>-<pod-template-hash>} is
     * reported as the Deployment, of the same API group.
     */
    static Owner owner(ObjectMeta meta) {
        if (meta.getOwnerReferences() == null) {
            return null;
        }
        for (OwnerReference ref : meta.getOwnerReferences()) {
            if (Boolean.TRUE.equals(ref.getController())) {
                String hash = meta.getLabels() == null ? null : meta.getLabels().get("pod-template-hash");
                String apiVersion = blankToNull(ref.getApiVersion());
                if ("ReplicaSet".equals(ref.getKind()) && hash != null && ref.getName() != null
                        && ref.getName().endsWith("-" + hash)) {
                    return new Owner("Deployment", ref.getName().substring(0, ref.getName().length() - hash.length() - 1),
                            apiVersion);
                }
                return new Owner(ref.getKind(), ref.getName(), apiVersion);
            }
        }
        return null;
    }

    /**
     * GPU resources of the pod: per container the limit (else the request), summed over app containers; an init
     * container runs alone, so the pod needs the larger of that sum and any one init container's ask.
     */
    static Map<String, Long> gpuResources(Pod pod) {
        Map<String, Long> total = new TreeMap<>();
        if (pod.getSpec() == null) {
            return total;
        }
        for (Container c : nullSafe(pod.getSpec().getContainers())) {
            gpuAsk(c == null ? null : c.getResources()).forEach((k, v) -> total.merge(k, v, Long::sum));
        }
        for (Container c : nullSafe(pod.getSpec().getInitContainers())) {
            gpuAsk(c == null ? null : c.getResources()).forEach((k, v) -> total.merge(k, v, Math::max));
        }
        total.values().removeIf(v -> v <= 0);
        return total;
    }

    private static Map<String, Long> gpuAsk(ResourceRequirements resources) {
        Map<String, Long> ask = new TreeMap<>();
        if (resources == null) {
            return ask;
        }
        Map<String, Quantity> limits = resources.getLimits() == null ? Map.of() : resources.getLimits();
        Map<String, Quantity> requests = resources.getRequests() == null ? Map.of() : resources.getRequests();
        for (Map<String, Quantity> source : List.of(requests, limits)) {
            source.forEach((name, quantity) -> {
                if (GpuResources.isGpuResource(name)) {
                    ask.put(name, amount(name, quantity));
                }
            });
        }
        return ask;
    }

    /**
     * A GPU resource's amount. A plain count ("1", "1024") is read as the number it is; any other form through the
     * quantity's own arithmetic, which builds decimals for every amount and was a twentieth of a replay's reading.
     */
    private static long amount(String name, Quantity quantity) {
        String plain = quantity.getAmount();
        if ((quantity.getFormat() == null || quantity.getFormat().isEmpty()) && isCount(plain)) {
            return Long.parseLong(plain);
        }
        try {
            BigDecimal value = quantity.getNumericalAmount();
            if (value.signum() < 0) {
                throw new Skip("negative quantity for " + name);
            }
            return value.longValue();
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new Skip("bad quantity for " + name);
        }
    }

    /** Up to 18 ASCII digits: a long, whatever they are. */
    private static boolean isCount(String amount) {
        if (amount == null || amount.isEmpty() || amount.length() > 18) {
            return false;
        }
        for (int i = 0; i < amount.length(); i++) {
            char c = amount.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static <T> List<T> nullSafe(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
