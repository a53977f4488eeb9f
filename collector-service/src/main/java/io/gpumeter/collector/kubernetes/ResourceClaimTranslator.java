package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.gpumeter.common.fact.ClaimConsumer;
import io.gpumeter.common.fact.ClaimRequest;
import io.gpumeter.common.fact.ClaimResult;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Reduces a ResourceClaim to its requests, its allocated devices and whom it is reserved for. */
public final class ResourceClaimTranslator {

    private ResourceClaimTranslator() {
    }

    public static ResourceClaimFact translate(ResourceClaim claim, WatchEventType type, Instant observedAt) {
        ObjectMeta meta = Objects.metadata(claim.getMetadata(), true);
        List<ClaimRequest> requests = new ArrayList<>();
        if (claim.getSpec() != null && claim.getSpec().getDevices() != null) {
            for (DeviceRequest request : nullSafe(claim.getSpec().getDevices().getRequests())) {
                if (blank(request.getName())) {
                    throw new Skip("ResourceClaim without spec.devices.requests[].name");
                }
                requests.add(request(request));
            }
        }
        var status = claim.getStatus();
        boolean allocated = status != null && status.getAllocation() != null;
        List<ClaimResult> results = new ArrayList<>();
        if (allocated && status.getAllocation().getDevices() != null) {
            for (DeviceRequestAllocationResult r : nullSafe(status.getAllocation().getDevices().getResults())) {
                if (blank(r.getDriver()) || blank(r.getPool()) || blank(r.getDevice())) {
                    throw new Skip("ResourceClaim allocation result without driver, pool or device");
                }
                results.add(new ClaimResult(r.getRequest(), r.getDriver(), r.getPool(), r.getDevice(),
                        Boolean.TRUE.equals(r.getAdminAccess())));
            }
        }
        List<ClaimConsumer> reservedFor = new ArrayList<>();
        for (ResourceClaimConsumerReference ref : status == null ? List.<ResourceClaimConsumerReference>of()
                : nullSafe(status.getReservedFor())) {
            reservedFor.add(new ClaimConsumer(ref.getResource(), ref.getName(), ref.getUid()));
        }
        return new ResourceClaimFact(meta.getUid(), meta.getNamespace(), meta.getName(), meta.getResourceVersion(),
                type, observedAt, Timestamps.parse(meta.getDeletionTimestamp(), "metadata.deletionTimestamp"),
                requests, allocated, results, reservedFor);
    }

    /**
     * An {@code exactly} request as it is; a {@code firstAvailable} request by its first alternative, which is what
     * it asks for most (the allocation says which one was taken).
     */
    private static ClaimRequest request(DeviceRequest request) {
        ExactDeviceRequest exactly = request.getExactly();
        if (exactly != null) {
            return new ClaimRequest(request.getName(), exactly.getDeviceClassName(), count(exactly.getAllocationMode(),
                    exactly.getCount()), Boolean.TRUE.equals(exactly.getAdminAccess()));
        }
        List<DeviceSubRequest> alternatives = nullSafe(request.getFirstAvailable());
        if (alternatives.isEmpty()) {
            throw new Skip("ResourceClaim request with neither exactly nor firstAvailable");
        }
        DeviceSubRequest first = alternatives.get(0);
        return new ClaimRequest(request.getName(), first.getDeviceClassName(),
                count(first.getAllocationMode(), first.getCount()), false);
    }

    /** ExactCount (the default) asks for count devices, one when unset; All asks for every matching device. */
    private static Long count(String mode, Long count) {
        if ("All".equals(mode)) {
            return null;
        }
        if (count != null && count < 0) {
            throw new Skip("ResourceClaim request with a negative count");
        }
        return count == null ? 1L : count;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static <T> List<T> nullSafe(List<T> list) {
        return list == null ? List.of() : list;
    }
}
