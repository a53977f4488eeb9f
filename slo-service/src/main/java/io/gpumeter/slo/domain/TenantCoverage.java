package io.gpumeter.slo.domain;

import java.time.Instant;
import java.util.List;

/**
 * How a tenant selector's candidate pod-minutes (those with requests in {@code [from, to)}) were attributed. Only
 * {@code tenantPodMinutes} count towards the SLO; the rest are left out and counted here.
 *
 * @param otherPodMinutes      pods the ledger attributed to another tenant, or to none
 * @param unknownPodMinutes    pods the ledger held no GPU row for at the time (listed in {@code unknownPods})
 * @param unresolvedPodMinutes pods whose ledger read failed; the next evaluation asks again
 */
public record TenantCoverage(Instant from, Instant to, long podMinutes, long tenantPodMinutes, long otherPodMinutes,
                             long unknownPodMinutes, long unresolvedPodMinutes, List<String> unknownPods) {
}
