package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.PendingReason;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The problems of a pod's GPU request that no scheduler will get past, found without asking one: a HAMi request sent
 * to another scheduler, gpumem together with gpumem-percentage, GPU cores over 100.
 */
final class RequestChecks {

    static final Set<String> HAMI_RESOURCES = Set.of("nvidia.com/gpumem", "nvidia.com/gpumem-percentage", "nvidia.com/gpucores");
    static final Set<String> HAMI_SCHEDULERS = Set.of("hami-scheduler", "volcano");
    static final String HAMI_CORES = "nvidia.com/gpucores";

    private RequestChecks() {
    }

    /** The findings for a pod asking {@code asks} of {@code scheduler}, in the order above; empty when none. */
    static List<PodTrail.Finding> of(Map<String, Long> asks, String scheduler) {
        List<PodTrail.Finding> findings = new ArrayList<>();
        List<String> hami = asks.keySet().stream().filter(HAMI_RESOURCES::contains).sorted().toList();
        if (!hami.isEmpty() && !HAMI_SCHEDULERS.contains(scheduler)) {
            findings.add(new PodTrail.Finding(PendingReason.WRONG_SCHEDULER, "requests " + String.join(", ", hami)
                    + " but spec.schedulerName is '" + scheduler + "', not hami-scheduler: HAMi did not take the pod,"
                    + " so no scheduler honours the vGPU request"));
        }
        if (asks.containsKey("nvidia.com/gpumem") && asks.containsKey("nvidia.com/gpumem-percentage")) {
            findings.add(new PodTrail.Finding(PendingReason.GPUMEM_CONFLICT,
                    "requests nvidia.com/gpumem together with nvidia.com/gpumem-percentage; HAMi accepts only one of them"));
        }
        Long cores = asks.get(HAMI_CORES);
        if (cores != null && cores > 100) {
            findings.add(new PodTrail.Finding(PendingReason.INVALID_REQUEST, "requests " + HAMI_CORES + "=" + cores
                    + ", a share of one card's cores in percent: more than 100 is a share no card has"));
        }
        return findings;
    }
}
