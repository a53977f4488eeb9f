package io.gpumeter.ledger.governance.service;

import java.math.BigDecimal;
import java.util.List;

/**
 * Per ClusterQueue: how often admission was refused among the workloads created in the window, and whether the
 * quota is honoured now (nominal vs reserved vs used, borrowing).
 *
 * @param rejected             workloads refused admission (QuotaReserved=False with a reason, or a Pending event)
 *                             and never admitted since: still waiting, deactivated, finished or deleted unadmitted
 * @param rejectionRate        rejected / workloads, null without workloads
 * @param refusedThenAdmitted  workloads refused at least once and admitted later: Kueue refuses every workload that
 *                             does not fit at once, so these waited, and their waits are in the queue-wait figures,
 *                             not rejections
 */
public record QueueReport(String cluster, String name, String cohort, int workloads, int rejected,
                          BigDecimal rejectionRate, int admitted, int refusedThenAdmitted, int pendingNow,
                          List<Quota> resources) {

    /**
     * One flavor and resource of the queue.
     *
     * @param borrowing    reserved above the nominal quota, lent by the cohort
     * @param withinLimits reserved within nominal plus the borrowing limit (no limit: always)
     */
    public record Quota(String flavor, String resource, BigDecimal nominal, BigDecimal borrowingLimit,
                        BigDecimal lendingLimit, BigDecimal reserved, BigDecimal used, BigDecimal borrowed,
                        boolean borrowing, boolean withinLimits) {
    }
}
