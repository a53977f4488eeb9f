package io.gpumeter.ledger.dra.domain;

import io.gpumeter.common.fact.ClaimRequest;
import io.gpumeter.common.fact.ClaimResult;
import io.gpumeter.common.fact.DraDevice;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.ledger.allocation.domain.AllocationUnit;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.allocation.domain.UnitPlanner;
import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns the devices allocated to a ResourceClaim into normalized units, reading each device's description in its
 * ResourceSlice as NVIDIA's DRA driver publishes it: {@code type} gpu or mig, {@code uuid}, {@code parentUUID} and
 * {@code profile} of a MIG device, {@code productName}, the memory capacity
 * is the card's and changes no share.
 */
public final class DraPlanner {

    /** The driver name of NVIDIA's DRA driver for GPUs. */
    public static final String NVIDIA_GPU_DRIVER = "gpu.nvidia.com";
    static final String SOURCE = "dra-claim";
    static final String UNRESOLVED = "+unresolved";

    private final NormalizationPolicy policy;

    public DraPlanner(NormalizationPolicy policy) {
        this.policy = policy;
    }

    /**
     * The units of the claim's allocation. Admin-access devices are left to {@link #planAdminAccess}; devices that
     * are not GPUs or MIG devices are not metered; a GPU driver's device whose slice is not known yet counts as a
     * whole card of unknown identity until the slice arrives.
     */
    public List<AllocationUnit> plan(ResourceClaimFact claim, DraDevices devices) {
        return plan(claim, devices, false);
    }

    /**
     * The units of the claim's admin-access devices, as if they were ordinary ones: they bill nothing only where
     * the claim's namespace admitted admin access, which the caller knows over time.
     */
    public List<AllocationUnit> planAdminAccess(ResourceClaimFact claim, DraDevices devices) {
        return plan(claim, devices, true);
    }

    private List<AllocationUnit> plan(ResourceClaimFact claim, DraDevices devices, boolean adminAccess) {
        List<AllocationUnit> units = new ArrayList<>();
        Set<String> adminRequests = adminRequests(claim);
        for (ClaimResult result : claim.results()) {
            if ((result.adminAccess() || adminRequests.contains(result.request())) != adminAccess) {
                continue;
            }
            Optional<DraDevice> device = devices.device(result.driver(), result.pool(), result.device());
            if (device.isPresent()) {
                unit(device.get(), result.driver()).ifPresent(units::add);
            } else if (NVIDIA_GPU_DRIVER.equals(result.driver())) {
                units.add(new AllocationUnit(UnitKind.WHOLE, null, null, null, null, null, policy.whole(),
                        SOURCE + UNRESOLVED));
            }
        }
        return units;
    }

    /**
     * What the claim asks for in card-equivalents: per request, its count times the share of the device allocated
     * to it (a whole card while none is), or every device allocated for an "All" request. Requests and devices for
     * admin access ask nothing where the namespace admitted it, and count as ordinary ones elsewhere.
     */
    public BigDecimal requested(ResourceClaimFact claim, DraDevices devices, boolean adminAccessAdmitted) {
        BigDecimal total = BigDecimal.ZERO;
        for (ClaimRequest request : claim.requests()) {
            if (request.adminAccess() && adminAccessAdmitted) {
                continue;
            }
            List<BigDecimal> allocated = new ArrayList<>();
            for (ClaimResult result : claim.results()) {
                if (request.name() != null && request.name().equals(firstPart(result.request()))
                        && !(result.adminAccess() && adminAccessAdmitted)) {
                    devices.device(result.driver(), result.pool(), result.device()).flatMap(d -> unit(d, result.driver()))
                            .ifPresent(u -> allocated.add(u.fraction()));
                }
            }
            if (request.count() == null) {
                total = total.add(allocated.stream().reduce(BigDecimal.ZERO, BigDecimal::add));
            } else {
                BigDecimal each = allocated.isEmpty() ? policy.whole() : allocated.get(0);
                total = total.add(each.multiply(BigDecimal.valueOf(request.count())));
            }
        }
        return total;
    }

    private Optional<AllocationUnit> unit(DraDevice device, String driver) {
        String type = attribute(device, driver, "type");
        String model = attribute(device, driver, "productName");
        if ("gpu".equals(type)) {
            return Optional.of(new AllocationUnit(UnitKind.WHOLE, attribute(device, driver, "uuid"), model, null, null,
                    null, policy.whole(), SOURCE));
        }
        if ("mig".equals(type)) {
            MigProfile profile;
            try {
                profile = MigProfile.parse(attribute(device, driver, "profile"));
            } catch (IllegalArgumentException | NullPointerException e) {
                return Optional.empty();
            }
            String basis = policy.knowsMigSlices(model) ? SOURCE : SOURCE + UnitPlanner.DEFAULT_SLICES;
            return Optional.of(new AllocationUnit(UnitKind.MIG, attribute(device, driver, "parentUUID"), model,
                    profile.raw(), null, null, policy.mig(profile, model), basis));
        }
        return Optional.empty();
    }

    /** A driver's own attribute may be written bare ("uuid") or qualified with its domain ("gpu.nvidia.com/uuid"). */
    static String attribute(DraDevice device, String driver, String name) {
        String bare = device.attributes().get(name);
        return bare != null ? bare : device.attributes().get(driver + "/" + name);
    }

    /** A request with subrequests is named "request/subrequest" in results. */
    private static String firstPart(String request) {
        if (request == null) {
            return null;
        }
        int slash = request.indexOf('/');
        return slash < 0 ? request : request.substring(0, slash);
    }

    private static Set<String> adminRequests(ResourceClaimFact claim) {
        Set<String> names = new java.util.HashSet<>();
        claim.requests().stream().filter(ClaimRequest::adminAccess).map(ClaimRequest::name).forEach(names::add);
        return names;
    }
}
