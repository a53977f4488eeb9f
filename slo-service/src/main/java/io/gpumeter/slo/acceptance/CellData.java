package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.domain.LatencySummary;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.domain.TokenRate;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one cell's pods did in the window: each SLI's merged percentiles and per-minute curve, requests and
 * failures, and what the ledger holds of the pods (units held, queues) with the reads that said so.
 *
 * @param gpus          the GPUs the cell held: whole cards count 1, a shared or partitioned unit its fraction
 * @param tokenReadings each pod's generation-token counter readings in the window ("namespace/pod")
 * @param createdAt     each pod's creation as the ledger's pod facts hold it (a pod the ledger does not know is missing)
 * @param okMinutes     each pod's minutes in the window in which it answered a request successfully, in order
 * @param incidents     the ledger's incidents of the cell's pods that started in the window (null answer: no read)
 * @param jitter        the jitter events of the cell's services that started in the window
 * @param window        the plan's window, which all of the above were read over
 */
public record CellData(Plan.Cell cell, List<String> pods, Map<Sli, SliData> latency, long requests, long failed,
                       long activeMinutes, List<RequestPoint> requestCurve, double gpus, List<Run.PodFact> facts,
                       List<String> clusterQueues, List<Run.Call> calls,
                       Map<String, List<TokenRate.Reading>> tokenReadings, Map<String, Instant> createdAt,
                       Map<String, List<Instant>> okMinutes, LedgerReads.Read<List<JsonNode>> incidents,
                       JitterEventReads.CellEvents jitter, TimeWindow window) {

    /** An SLI's percentiles over the window and its curve. */
    public record SliData(LatencySummary total, List<MinutePoint> curve) {
    }

    public record MinutePoint(Instant minute, LatencySummary latency) {
    }

    public record RequestPoint(Instant minute, long requests, long failed) {
    }

    /** Requests per second over the minutes that had requests; null without any. */
    public Double throughput() {
        return activeMinutes == 0 ? null : requests / (activeMinutes * 60.0);
    }

    /**
     * Generated tokens per second: each pod's rate from its counter readings, summed over the cell's pods (they serve
     * side by side); null when no pod's tokens were counted.
     */
    public Double tokensPerSecond() {
        Double total = null;
        for (List<TokenRate.Reading> readings : tokenReadings.values()) {
            Double rate = TokenRate.perSecond(readings);
            if (rate != null) {
                total = (total == null ? 0 : total) + rate;
            }
        }
        return total;
    }

    /** Failed requests over all requests; null without any request. */
    public Double failureRate() {
        return requests == 0 ? null : (double) failed / requests;
    }

    public String service() {
        return cell.selector().service();
    }

    /** The namespace of the cell's service (or the one a namespace or tenant cell is narrowed to); else null. */
    public String namespace() {
        return cell.selector().namespace();
    }
}
